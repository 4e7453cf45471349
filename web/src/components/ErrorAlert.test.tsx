import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../lib/i18n';
import { ApiError } from '../lib/errors';
import served from '../test/schema.json';
import { ErrorAlert } from './ErrorAlert';

function Clearable({ error }: { error: ApiError }) {
  const [e, setE] = useState<ApiError | null>(error);
  return <ErrorAlert error={e} onDismiss={() => setE(null)} />;
}

describe('ErrorAlert (SPEC §8)', () => {
  it('titles by error name and keys the message by reason', () => {
    render(<ErrorAlert error={new ApiError(409, 'conflict', 'Document update conflict.')} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Conflict');
    expect(alert).toHaveTextContent('This record was changed meanwhile.');
  });

  it('falls back to the raw reason and to the "Error" title', () => {
    render(<ErrorAlert error={new ApiError(418, 'teapot', 'I am a teapot')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error');
    expect(screen.getByRole('alert')).toHaveTextContent('I am a teapot');
  });

  it('translates to pt-BR', async () => {
    await i18n.changeLanguage('pt-BR');
    render(<ErrorAlert error={new ApiError(0, 'connection_error', 'Network error')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Erro de conexão');
    expect(screen.getByRole('alert')).toHaveTextContent('Erro de rede');
    await i18n.changeLanguage('en');
  });

  it("translates the schema's bounded refusals for any bound, in both languages", async () => {
    const bounded = ['too_long', 'too_many', 'min', 'max'].map((k) => served.messages[k as keyof typeof served.messages].replace('{n}', '37'));
    const first = render(<ErrorAlert error={new ApiError(422, 'unprocessable_entity', bounded[0]!)} />);
    expect(screen.getByRole('alert')).toHaveTextContent('is too long (maximum is 37 characters)');
    first.unmount();
    await i18n.changeLanguage('pt-BR');
    for (const reason of bounded) {
      const { unmount } = render(<ErrorAlert error={new ApiError(422, 'unprocessable_entity', reason)} />);
      const text = screen.getByRole('alert').textContent ?? '';
      expect(text).toContain('37');
      expect(text).not.toContain(reason);
      unmount();
    }
    await i18n.changeLanguage('en');
  });

  it('can be cleared', async () => {
    render(<Clearable error={new ApiError(403, 'forbidden', 'Permission denied')} />);
    await userEvent.setup().click(screen.getByRole('button'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
