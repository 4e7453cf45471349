// The desk's record forms are declarations on the form kit: every field they
// declare is one the server serves rules for, the rules are checked before
// sending in the server's words, and the server's own field errors land
// under the fields (issue 26 item 4).

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormDeclaration } from '../../components/records/DeclaredForm';
import served from '../../test/schema.json';
import { json, mockFetch, renderScreen } from '../../test/utils';
import { CATEGORY_FORM, Component as CategoryForm } from './routes/CategoryForm';
import { CONTRACT_FORM } from './routes/ContractForm';
import { EQUIPMENT_FORM } from './routes/EquipmentForm';
import { MAINTENANCE_FORM } from './routes/MaintenanceForm';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const klasses = served.klasses as Record<string, { name: string }[]>;

afterEach(() => vi.unstubAllGlobals());

describe('the desk forms are declarations of served klasses', () => {
  it.each([CATEGORY_FORM, EQUIPMENT_FORM, CONTRACT_FORM, MAINTENANCE_FORM].map((f): [string, FormDeclaration] => [f.klass, f]))('%s declares only served fields', (klass, form) => {
    const fields = (klasses[klass] ?? []).map((f) => f.name);
    expect(fields.length).toBeGreaterThan(0);
    expect(form.fields.map((f) => f.name).filter((n) => !fields.includes(n))).toEqual([]);
  });
});

describe('CategoryForm on the kit', () => {
  const at = { path: '/account/:account_id/categories/new', url: `/account/${ACC}/categories/new` };

  it('takes required from the served rules and refuses a name past the served bound before sending', async () => {
    const { calls } = mockFetch((c) => (c.path === '/api/_schema' ? json(200, served) : undefined));
    renderScreen(<CategoryForm />, at);
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(name).toBeRequired());
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(101));
    await userEvent.click(screen.getByTestId('save-category'));
    expect(await screen.findByText('is too long (maximum is 100 characters)')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows the server's field errors under the fields, with no banner", async () => {
    const { calls } = mockFetch((c) => {
      if (c.path === '/api/_schema') return json(200, served);
      if (c.method === 'POST') return json(422, { error: 'unprocessable_entity', reason: 'Your request failed', fields: { label: ['has already been taken'] } });
      return undefined;
    });
    renderScreen(<CategoryForm />, at);
    await userEvent.type(await screen.findByRole('textbox', { name: /Name/ }), 'Screens');
    await userEvent.type(screen.getByRole('textbox', { name: /Label/ }), 'SCR');
    await userEvent.click(screen.getByTestId('save-category'));
    const label = screen.getByRole('textbox', { name: /Label/ });
    await waitFor(() => expect(label).toHaveAttribute('aria-invalid', 'true'));
    expect(within(screen.getByTestId('record-form')).getByText('has already been taken')).toBeInTheDocument();
    expect(screen.queryByTestId('error-alert')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
