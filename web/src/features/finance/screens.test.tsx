// The finance screens against a fetch double: bulk confirmation from a
// list (progress, per-row failures), the transfer form's currency hint with
// the way to an exchange, and a wallet's opening balance typed in pt-BR.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as MoneyForm } from './routes/MoneyForm';
import { Component as MoneyIndex } from './routes/MoneyIndex';
import { Component as WalletForm } from './routes/WalletForm';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const WALLETS = [
  { _id: 'wll-brl', _rev: '1-a', klass: 'Wallet', name: 'Conta', currency: 'BRL', precision: 2, active: true },
  { _id: 'wll-usd', _rev: '1-a', klass: 'Wallet', name: 'Dollars', currency: 'USD', precision: 2, active: true },
];

function selectorOf(c: Call): Record<string, unknown> {
  return ((c.body as { selector?: Record<string, unknown> }) ?? {}).selector ?? {};
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('bulk confirm on a money index', () => {
  it('confirms the selected pending rows one by one and reports the failures', async () => {
    const incomes = [
      { _id: 'inc-1', _rev: '1-a', klass: 'Income', description: 'Salary', wallet_id: 'wll-brl', value: 500000, posted_at: '2025-05-01', confirmed: false, imported: false },
      { _id: 'inc-2', _rev: '1-a', klass: 'Income', description: 'Refund', wallet_id: 'wll-brl', value: 1990, posted_at: '2025-05-02', confirmed: false, imported: false },
      { _id: 'inc-3', _rev: '1-a', klass: 'Income', description: 'Old one', wallet_id: 'wll-brl', value: 100, posted_at: '2025-04-02', confirmed: true, imported: false },
    ];
    const { calls } = mockFetch((c: Call) => {
      if (c.path === `/api/${ACC}/_find`) {
        const sel = selectorOf(c);
        if (sel.klass === 'Wallet') return json(200, { docs: WALLETS });
        if (sel.klass === 'Income') return json(200, { docs: incomes });
      }
      if (c.method === 'PUT' && c.path === `/api/${ACC}/_design/money/_update/confirm/inc-1`) return json(200, { ok: true, id: 'inc-1', rev: '2-b' });
      if (c.method === 'PUT' && c.path === `/api/${ACC}/_design/money/_update/confirm/inc-2`) return json(422, { error: 'unprocessable_entity', reason: 'Revenue is already confirmed' });
      return undefined;
    });
    renderScreen(<MoneyIndex />, { path: '/account/:account_id/incomes', url: `/account/${ACC}/incomes?state=all`, handle: { name: 'incomes#index', access: 'account', set: 'incomes' } });
    await screen.findByText('Salary');
    expect(screen.getByText('R$5,000.00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every record on this page' }));
    const confirm = screen.getByTestId('bulk-confirm');
    expect(confirm).toHaveTextContent('Confirm selected (2)');
    await userEvent.click(confirm);
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByTestId('bulk-confirmed')).toHaveTextContent('Confirmed: 1');
    expect(within(result).getByText('Already confirmed, left as they were: 1')).toBeInTheDocument();
    expect(within(result).getByTestId('bulk-failures')).toHaveTextContent('Refund: This revenue is already confirmed.');
    const puts = calls.filter((c) => c.method === 'PUT').map((c) => c.path);
    expect(puts).toEqual([`/api/${ACC}/_design/money/_update/confirm/inc-1`, `/api/${ACC}/_design/money/_update/confirm/inc-2`]);
    // The failed row stays selected, to try again.
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Select “Refund”' })).toBeChecked());
    expect(screen.getByRole('checkbox', { name: 'Select “Salary”' })).not.toBeChecked();
  });

  it('puts the filters in the Mango selector', async () => {
    const { calls } = mockFetch((c: Call) => (c.path === `/api/${ACC}/_find` ? json(200, { docs: selectorOf(c).klass === 'Wallet' ? WALLETS : [] }) : undefined));
    renderScreen(<MoneyIndex />, { path: '/account/:account_id/outgos', url: `/account/${ACC}/outgos?wallet=wll-brl&month=2025-05&state=unconfirmed`, handle: { name: 'outgos#index', access: 'account', set: 'outgos' } });
    await screen.findByTestId('records-empty');
    const find = calls.find((c) => selectorOf(c).klass === 'Outgo');
    expect(find?.body).toMatchObject({
      selector: { klass: 'Outgo', wallet_id: 'wll-brl', posted_at: { $gte: '2025-05-01', $lt: '2025-06-01' }, confirmed: false, imported: false },
      sort: [{ posted_at: 'desc' }],
      limit: 26,
      skip: 0,
    });
  });
});

describe('the transfer form', () => {
  it('says under the destination that another currency needs an exchange, and links to one', async () => {
    const { calls } = mockFetch((c: Call) => (c.path === `/api/${ACC}/_find` ? json(200, { docs: WALLETS }) : undefined));
    renderScreen(<MoneyForm />, { path: '/account/:account_id/transfers/new', url: `/account/${ACC}/transfers/new`, handle: { name: 'transfers#new', access: 'account', set: 'transfers' } });
    await screen.findAllByRole('option', { name: 'Conta · BRL' });
    await userEvent.type(screen.getByLabelText(/Description/), 'To my dollars');
    await userEvent.selectOptions(screen.getByLabelText(/Source wallet/), 'wll-brl');
    await userEvent.selectOptions(screen.getByLabelText(/Destination wallet/), 'wll-usd');
    expect(await screen.findByText('has another currency than the source wallet: create an exchange instead')).toBeInTheDocument();
    const link = screen.getByTestId('switch-to-exchange');
    expect(link.getAttribute('href')).toBe(`/account/${ACC}/exchanges/new?description=To+my+dollars&posted_at=${new Date().toISOString().slice(0, 10)}&source=wll-brl&destination=wll-usd`);
    await userEvent.type(screen.getByLabelText(/^Value/), '10.00');
    await userEvent.click(screen.getByTestId('save-record'));
    // Nothing is sent while the wallets cannot make a transfer.
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/${ACC}`)).toBe(false);
  });
});

describe('the wallet form', () => {
  it('reads "12,50" in pt-BR as 1250 units and sends the currency upper-cased', async () => {
    await i18n.changeLanguage('pt-BR');
    const { calls } = mockFetch((c: Call) => (c.method === 'POST' && c.path === `/api/${ACC}` ? json(201, { ok: true, id: 'wll-new', rev: '1-a' }) : undefined));
    const { router } = renderScreen(<WalletForm />, { path: '/account/:account_id/wallets/new', url: `/account/${ACC}/wallets/new`, handle: { name: 'wallets#new', access: 'account', set: 'wallets' } });
    await userEvent.type(await screen.findByLabelText(/Nome/), 'Conta corrente');
    await userEvent.type(screen.getByRole('combobox', { name: 'Moeda' }), 'brl');
    const opening = screen.getByLabelText(/Saldo inicial/);
    await userEvent.clear(opening);
    await userEvent.type(opening, '12,50');
    await userEvent.click(screen.getByTestId('save-record'));
    await waitFor(() => expect(router.state.location.pathname).not.toContain('/new'));
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
    expect(post?.body).toMatchObject({ klass: 'Wallet', name: 'Conta corrente', currency: 'BRL', precision: 2, start_balance: 1250, active: true });
  });
});
