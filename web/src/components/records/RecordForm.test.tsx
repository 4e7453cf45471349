import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/errors';
import type { FieldDef, FormValues } from './fields';
import { RecordForm } from './RecordForm';
import { AUTOFOCUS_RETRY_MS } from './useAutofocus';

const FIELDS: FieldDef[] = [
  { name: 'name', type: 'text', required: true },
  { name: 'description', type: 'textarea' },
  { name: 'active', type: 'boolean' },
];

function Harness({ loading, error, onSubmit }: { loading: boolean; error?: ApiError | null; onSubmit?: (v: FormValues) => void }) {
  const [values, setValues] = useState<FormValues>({ name: 'Ana' });
  return (
    <RecordForm
      fields={FIELDS}
      values={values}
      onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))}
      onSubmit={() => onSubmit?.(values)}
      loading={loading}
      error={error ?? null}
    />
  );
}

afterEach(() => vi.useRealTimers());

describe('RecordForm', () => {
  it('retries the autofocus every 100 ms until the form stops loading', () => {
    vi.useFakeTimers();
    const { rerender } = render(<Harness loading />);
    act(() => vi.advanceTimersByTime(AUTOFOCUS_RETRY_MS * 3));
    expect(document.activeElement).toBe(document.body);
    rerender(<Harness loading={false} />);
    act(() => vi.advanceTimersByTime(AUTOFOCUS_RETRY_MS));
    expect(document.activeElement).toBe(screen.getByLabelText(/Name/));
  });

  it('has 10-row textareas and shows server field errors under their fields', () => {
    const error = new ApiError(422, 'unprocessable_entity', 'Your request failed', {
      name: ["can't be blank"],
      secret_field: ['is invalid'],
    });
    render(<Harness loading={false} error={error} />);
    expect(screen.getByLabelText('Description')).toHaveAttribute('rows', '10');
    expect(screen.getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText("can't be blank")).toBeInTheDocument();
    // A field the form does not show is listed in the alert instead.
    expect(screen.getByRole('alert')).toHaveTextContent('secret_field: is invalid');
  });

  it('submits the edited values from the keyboard', async () => {
    const onSubmit = vi.fn();
    render(<Harness loading={false} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/Name/));
    await user.type(screen.getByLabelText(/Name/), 'Oficina do Zé{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Oficina do Zé' });
  });
});
