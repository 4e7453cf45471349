// The billing screens against a fetch double shaped like the contract
// (/work/billing-contract.md): /billing, the plan chooser and its modals,
// the checkout with its exactly-one price rule and the test completion,
// the usage page, the backups panel and the shell's limit banners.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LimitsBanner } from '../../components/LimitsBanner';
import { setActiveDb } from '../../lib/active-db';
import { i18n } from '../../lib/i18n';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as Billing } from './routes/Billing';
import { Component as Checkout } from './routes/Checkout';
import { Component as SubscriptionCheckout } from './routes/SubscriptionCheckout';
import { Component as Usage } from './routes/Usage';

vi.mock('./components/stripe', () => ({
  mountEmbeddedCheckout: vi.fn(async (_key: string, _secret: string, el: HTMLElement) => {
    el.append('stripe mounted');
    return { destroy: () => undefined };
  }),
}));

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const ACC2 = 'acc-fedcba9876543210fedcba9876543210';
const USR = 'usr-0123456789abcdef0123456789abcdef';
const PRICES = [
  { _id: 'ppr-free', klass: 'PlanPrice', group_plan: 'free', unit_amount: 0, unit_mb: 0, livemode: false, active: true },
  { _id: 'ppr-pro', klass: 'PlanPrice', group_plan: 'pro', unit_amount: 600, unit_mb: 100, livemode: false, active: true },
  { _id: 'ppr-corp', klass: 'PlanPrice', group_plan: 'corp', unit_amount: 1800, unit_mb: 200, livemode: false, active: true },
  { _id: 'ppr-server', klass: 'PlanPrice', group_plan: 'server', unit_amount: 90000, unit_mb: 0, livemode: false, active: true },
];

const billing = (over: Record<string, unknown> = {}) => ({
  plan: 'free',
  unconfirmed_plan: '',
  livemode: false,
  billing_email: 'pay@shop.test',
  customer_id: '',
  price_id: '',
  next_invoice: null,
  switch_locked_until: null,
  can_cancel: false,
  is_admin: true,
  publishable_key: 'pk_test_x',
  ...over,
});

const limits = (over: Record<string, unknown> = {}) => ({
  plan: 'free',
  records: 950,
  record_limit: 1000,
  over_since: null,
  view_only_at: null,
  view_only: false,
  bytes: 1_500_000,
  drive_bytes: 2_000_000,
  drive_limit: 100_000_000,
  ...over,
});

interface World {
  billing?: Record<string, unknown>;
  limits?: Record<string, unknown>;
  prices?: unknown[];
  lookup?: unknown[];
  extra?: (c: Call) => Response | undefined;
}

function world(w: World = {}) {
  return mockFetch((call: Call) => {
    const path = call.path.split('?')[0];
    const extra = w.extra?.(call);
    if (extra) return extra;
    if (path === '/api/_session') return json(200, { ok: true, userCtx: { name: USR, roles: [USR, ACC, ACC2] } });
    if (path === `/api/${USR}/_find`)
      return json(200, {
        docs: [
          { _id: 'mem-1', db_name: ACC, name: 'Oficina Centro', status: 'accepted', user_id: USR, 'confirmed-plan': 'free' },
          { _id: 'mem-2', db_name: ACC2, name: 'Filial', status: 'accepted', user_id: USR, 'confirmed-plan': 'pro' },
        ],
      });
    if (path === `/api/${ACC}/_billing`) return json(200, billing(w.billing));
    if (path === `/api/${ACC}/_limits`) return json(200, limits(w.limits));
    if (path === `/api/accounts/${ACC}`) return json(200, { _id: ACC, name: 'Oficina Centro' });
    if (path === `/api/${ACC}/_backups` && call.method === 'GET') return json(200, { backups: [] });
    if (path === '/api/prices/_find') {
      const sel = (call.body as { selector: Record<string, unknown> }).selector;
      if (sel._id) return json(200, { docs: w.lookup ?? PRICES.filter((p) => p._id === sel._id) });
      return json(200, { docs: w.prices ?? PRICES });
    }
    return undefined;
  });
}

beforeEach(() => setActiveDb(ACC));
afterEach(async () => {
  setActiveDb(null);
  await i18n.changeLanguage('en');
});

describe('/billing', () => {
  it('shows the profile, the size and record tiles, the plan, and the 15-row table with numbered notes', async () => {
    world({ billing: { plan: 'pro', next_invoice: { amount: 1234, currency: 'usd', date: '2026-12-01' }, can_cancel: true } });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    expect(await screen.findByTestId('billing-plan-name')).toHaveTextContent('Pro');
    expect(screen.getByTestId('billing-next-invoice')).toHaveTextContent('Next invoice: US$12.34 on 2026-12-01.');
    expect(screen.getByTestId('billing-email')).toHaveTextContent('pay@shop.test');
    await waitFor(() => expect(screen.getByTestId('tile-size')).toHaveTextContent('3.5 MB'));
    expect(screen.getByTestId('tile-records')).toHaveTextContent('950');
    const table = await screen.findByTestId('plan-table');
    expect(within(table).getAllByTestId('plan-row')).toHaveLength(15);
    expect(table).toHaveTextContent('US$6.00 per 100 MB per month');
    expect(table).toHaveTextContent('US$18.00 per 200 MB per month');
    expect(within(screen.getByTestId('plan-notes')).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByTestId('plan-notes')).toHaveTextContent('A dedicated server costs US$900.00');
    // Several Groups: the account picker; admins on pro see cancel.
    expect(await screen.findByTestId('account-picker')).toBeInTheDocument();
    expect(screen.getByTestId('cancel-plan')).toBeInTheDocument();
    expect(screen.getByTestId('choose-corp')).toHaveAttribute('href', '/checkout/ppr-corp');
  });

  it('says "We could not find any plan" with fewer than 3 prices, and hides cancel on free', async () => {
    world({ prices: PRICES.slice(0, 2) });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    expect(await screen.findByTestId('no-plans')).toHaveTextContent('We could not find any plan');
    expect(screen.queryByTestId('plan-table')).toBeNull();
    expect(screen.queryByTestId('cancel-plan')).toBeNull();
  });

  it('cancels a pro plan after its confirmation, recording the unconfirmed change first', async () => {
    const { calls } = world({
      billing: { plan: 'pro', can_cancel: true },
      extra: (c) => {
        if (c.method === 'POST' && c.path === `/api/${ACC}/_find`) return json(200, { docs: [{ _id: 'adj-u', _rev: '1-a', klass: 'Adjustment', key: 'unconfirmed-plan', value: '' }] });
        if (c.method === 'PUT' && c.path.startsWith(`/api/${ACC}/adj-u`)) return json(200, { ok: true, id: 'adj-u', rev: '2-b' });
        if (c.method === 'PUT' && c.path === `/api/${ACC}/_design/subscription/_update/cancel/${ACC}`) return json(200, { ok: true });
        return undefined;
      },
    });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    await userEvent.click(await screen.findByTestId('cancel-plan'));
    const modal = await screen.findByTestId('cancel-modal');
    expect(modal).toHaveTextContent('The Group keeps Pro until the end of the period already paid');
    await userEvent.click(within(modal).getByTestId('plan-change-confirm'));
    await waitFor(() => expect(screen.queryByTestId('cancel-modal')).toBeNull());
    const adj = calls.findIndex((c) => c.method === 'PUT' && c.path.startsWith(`/api/${ACC}/adj-u`));
    const upd = calls.findIndex((c) => c.path === `/api/${ACC}/_design/subscription/_update/cancel/${ACC}`);
    expect(calls[adj]!.body).toMatchObject({ key: 'unconfirmed-plan', value: 'cancel' });
    expect(upd).toBeGreaterThan(adj);
  });

  it('says when the billing state cannot be read, and retries', async () => {
    let fail = true;
    world({ extra: (c) => (c.path === `/api/${ACC}/_billing` && fail ? json(500, { error: 'internal_server_error', reason: 'boom' }) : undefined) });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    const err = await screen.findByTestId('billing-error');
    expect(err).toHaveTextContent('Internal server error');
    fail = false;
    await userEvent.click(within(err).getByRole('button'));
    expect(await screen.findByTestId('billing-plan-name')).toHaveTextContent('Free');
  });

  it('hides cancel from non-admins on pro', async () => {
    world({ billing: { plan: 'pro', is_admin: false, can_cancel: false } });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    await screen.findByTestId('plan-table');
    expect(screen.queryByTestId('cancel-plan')).toBeNull();
    expect(screen.getByText('Only the Group\'s administrators can change its plan.')).toBeInTheDocument();
  });

  it('switches to free: the unconfirmed-plan adjustment first, then the update handler', async () => {
    const { calls } = world({
      billing: { plan: 'pro', can_cancel: true },
      extra: (c) => {
        if (c.method === 'POST' && c.path === `/api/${ACC}/_find`) return json(200, { docs: [] });
        if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(201, { ok: true, id: 'adj-1', rev: '1-a' });
        if (c.method === 'PUT' && c.path.startsWith(`/api/${ACC}/_design/subscription/_update/free/`)) return json(200, { ok: true });
        return undefined;
      },
    });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    await userEvent.click(await screen.findByTestId('choose-free'));
    const modal = await screen.findByTestId('free-modal');
    expect(modal).toHaveTextContent('Switch to the free plan');
    await userEvent.click(within(modal).getByTestId('plan-change-confirm'));
    await waitFor(() => expect(screen.queryByTestId('free-modal')).toBeNull());
    const adj = calls.findIndex((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
    const upd = calls.findIndex((c) => c.method === 'PUT' && c.path === `/api/${ACC}/_design/subscription/_update/free/${ACC}`);
    expect(adj).toBeGreaterThan(-1);
    expect(upd).toBeGreaterThan(adj);
    expect(calls[adj]!.body).toMatchObject({ klass: 'Adjustment', key: 'unconfirmed-plan', value: 'free' });
  });

  it('says the 24 h lock and the 1,000-record refusal as sentences and sends nothing', async () => {
    const until = new Date(Date.now() + 20 * 3600_000).toISOString();
    const { calls } = world({ billing: { plan: 'pro', switch_locked_until: until }, limits: { plan: 'pro', records: 1500, record_limit: 0 } });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    expect(await screen.findByTestId('switch-locked')).toHaveTextContent(/Plan changes are locked until .*: a Group's plan can change once every 24 hours\./);
    await userEvent.click(await screen.findByTestId('choose-free'));
    const modal = await screen.findByTestId('free-modal');
    await waitFor(() => expect(within(modal).getByTestId('switch-too-many')).toHaveTextContent('This Group holds 1,500 records and the free plan allows 1,000: delete records before switching to free.'));
    expect(within(modal).getByTestId('switch-locked')).toBeInTheDocument();
    expect(within(modal).getByTestId('plan-change-confirm')).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('free-modal')).toBeNull();
    expect(calls.some((c) => c.path.includes('_update'))).toBe(false);
  });

  it('shows the server\'s refusal of a switch in the modal', async () => {
    world({
      billing: { plan: 'pro' },
      extra: (c) => {
        if (c.method === 'POST' && c.path === `/api/${ACC}/_find`) return json(200, { docs: [] });
        if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(201, { ok: true, id: 'adj-1', rev: '1-a' });
        if (c.method === 'PUT' && c.path.includes('_update/free')) return json(409, { error: 'conflict', reason: 'The plan was changed less than 24 hours ago' });
        return undefined;
      },
    });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    await userEvent.click(await screen.findByTestId('choose-free'));
    await userEvent.click(within(await screen.findByTestId('free-modal')).getByTestId('plan-change-confirm'));
    expect(await within(screen.getByTestId('free-modal')).findByText('The plan was changed less than 24 hours ago')).toBeInTheDocument();
  });

  it('refuses an empty billing email under the field without sending, and shows the server\'s "is invalid"', async () => {
    const { calls } = world({
      billing: { billing_email: '' },
      extra: (c) => (c.method === 'PUT' && c.path === `/api/${ACC}/_billing/email` ? json(422, { error: 'unprocessable_entity', reason: '', fields: { billing_email: ['is invalid'] } }) : undefined),
    });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    expect(await screen.findByTestId('billing-email-needed')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('billing-email-edit'));
    const modal = await screen.findByTestId('billing-email-modal');
    await userEvent.click(within(modal).getByTestId('billing-email-save'));
    expect(await within(modal).findByText('is invalid')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await userEvent.type(within(modal).getByLabelText('Billing email'), 'x@y');
    await userEvent.click(within(modal).getByTestId('billing-email-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === `/api/${ACC}/_billing/email`)).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ email: 'x@y' });
    expect(await within(modal).findByText('is invalid')).toBeInTheDocument();
  });

  it('lists backups with size and date, links the download, and restores into a new Group by name', async () => {
    const { calls } = world({
      extra: (c) => {
        if (c.method === 'GET' && c.path === `/api/${ACC}/_backups`)
          return json(200, { backups: [{ id: 'bk1', created_at: '2026-11-20T10:00:00Z', size: 123_400, files: 4, docs: 100, with_contents: false }] });
        if (c.method === 'POST' && c.path === `/api/${ACC}/_backups/bk1/restore`) return json(201, { db: ACC2 });
        return undefined;
      },
    });
    renderScreen(<Billing />, { path: '/billing', url: '/billing' });
    const row = await screen.findByTestId('backup-row');
    expect(row).toHaveTextContent('123.4 kB');
    expect(row).toHaveTextContent('2026-11-20');
    expect(row).toHaveTextContent('100 documents, 4 files');
    expect(within(row).getByTestId('backup-download')).toHaveAttribute('href', `/api/${ACC}/_backups/bk1`);
    await userEvent.click(within(row).getByTestId('backup-restore'));
    const modal = await screen.findByTestId('restore-modal');
    await userEvent.click(within(modal).getByTestId('restore-confirm'));
    expect(await within(modal).findByText("can't be blank")).toBeInTheDocument();
    expect(calls.some((c) => c.path.endsWith('/restore'))).toBe(false);
    await userEvent.type(within(modal).getByLabelText("New Group's name"), 'Cópia');
    await userEvent.click(within(modal).getByTestId('restore-confirm'));
    expect(await within(modal).findByTestId('restore-done')).toHaveTextContent('Restored into the new Group Cópia.');
    expect(calls.find((c) => c.path.endsWith('/restore'))!.body).toEqual({ name: 'Cópia' });
  });
});

describe('/checkout/{price_id}', () => {
  it('shows "We could not find any plan, please refresh the page" unless the lookup finds exactly one', async () => {
    world({ lookup: [PRICES[1], { ...PRICES[1], _id: 'ppr-pro2' }] });
    renderScreen(<SubscriptionCheckout />, { path: '/checkout/:price_id', url: '/checkout/ppr-pro' });
    expect(await screen.findByTestId('checkout-no-plan')).toHaveTextContent('We could not find any plan, please refresh the page');
  });

  it('summarises the Group, the plan and its price, links the legal pages, and completes a test payment', async () => {
    const { calls } = world({
      billing: { test_complete: true },
      extra: (c) => {
        if (c.method === 'POST' && c.path === `/api/${ACC}/_billing/checkout`) return json(200, { session_id: 'cs_1', client_secret: 'sec', publishable_key: 'pk', test_complete: true });
        if (c.method === 'POST' && c.path === `/api/${ACC}/_billing/checkout/cs_1/complete`) return json(200, { ok: true });
        return undefined;
      },
    });
    renderScreen(<SubscriptionCheckout />, { path: '/checkout/:price_id', url: '/checkout/ppr-pro' });
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent('US$6.00 per 100 MB per month');
    expect(screen.getByTestId('checkout-account')).toHaveTextContent('Oficina Centro');
    const legal = screen.getByTestId('legal-links');
    expect(within(legal).getByText('Terms and conditions')).toHaveAttribute('href', '/terms-and-conditions.html');
    expect(within(legal).getByText('Refund policy')).toHaveAttribute('href', '/refund-policy.html');
    await userEvent.click(screen.getByTestId('checkout-start'));
    expect(calls.find((c) => c.path === `/api/${ACC}/_billing/checkout`)!.body).toEqual({ price_id: 'ppr-pro', locale: 'en', theme: 'light' });
    await userEvent.click(await screen.findByTestId('test-complete'));
    expect(await screen.findByTestId('checkout-done')).toHaveTextContent('Payment received: the Group moves to Pro');
  });

  it('mounts Stripe\'s embedded checkout with the session\'s secret when not in test mode', async () => {
    const { mountEmbeddedCheckout } = await import('./components/stripe');
    world({
      extra: (c) =>
        c.method === 'POST' && c.path === `/api/${ACC}/_billing/checkout` ? json(200, { session_id: 'cs_2', client_secret: 'cs_2_secret', publishable_key: 'pk_test_9' }) : undefined,
    });
    renderScreen(<SubscriptionCheckout />, { path: '/checkout/:price_id', url: '/checkout/ppr-corp' });
    await userEvent.click(await screen.findByTestId('checkout-start'));
    await waitFor(() => expect(screen.getByTestId('stripe-frame')).toHaveAttribute('data-state', 'ready'));
    expect(screen.getByTestId('stripe-frame')).toHaveTextContent('stripe mounted');
    expect(mountEmbeddedCheckout).toHaveBeenCalledWith('pk_test_9', 'cs_2_secret', expect.any(HTMLElement), expect.objectContaining({ locale: 'en' }));
  });

  it('needs a billing email before paying, and shows the money in pt-BR', async () => {
    await i18n.changeLanguage('pt-BR');
    world({ billing: { billing_email: '' } });
    renderScreen(<SubscriptionCheckout />, { path: '/checkout/:price_id', url: '/checkout/ppr-pro' });
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent('US$ 6,00 por 100 MB por mês');
    expect(screen.getByTestId('checkout-email-needed')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-start')).toBeDisabled();
  });

  it('opens the switch-to-free confirmation for /checkout/free', async () => {
    world({ billing: { plan: 'pro' } });
    renderScreen(<SubscriptionCheckout />, { path: '/checkout/:price_id', url: '/checkout/free' });
    expect(await screen.findByTestId('free-modal')).toBeInTheDocument();
  });
});

describe('/checkout', () => {
  it('asks which Group to bill when there are several', async () => {
    setActiveDb(null);
    world();
    renderScreen(<Checkout />, { path: '/checkout', url: '/checkout' });
    const picker = await screen.findByLabelText('Group to bill');
    expect(picker).toHaveValue('');
    await userEvent.selectOptions(picker, ACC);
    expect(await screen.findByTestId('choose-pro')).toHaveAttribute('href', '/checkout/ppr-pro');
  });
});

describe('/usage', () => {
  const USAGE = {
    days: [
      { date: '2026-11-23', klasses: { Ticket: { records: 10, bytes: 5000 }, Customer: { records: 3, bytes: 900 } } },
      { date: '2026-11-24', klasses: { Ticket: { records: 12, bytes: 6000 }, Customer: { records: 4, bytes: 1200 } } },
    ],
  };

  it('shows the table by size and by record count per klass, newest day first', async () => {
    const { calls } = world({ extra: (c) => (c.path.startsWith(`/api/${ACC}/_usage`) ? json(200, USAGE) : undefined) });
    renderScreen(<Usage />, { path: '/usage', url: '/usage?view=table' });
    const table = await screen.findByTestId('usage-table');
    const rows = within(table).getAllByTestId('usage-row');
    expect(rows[0]).toHaveTextContent('2026-11-247.2 kB6.0 kB1.2 kB');
    expect(calls.find((c) => c.path.startsWith(`/api/${ACC}/_usage`))!.path).toBe(`/api/${ACC}/_usage?days=90`);
    await userEvent.click(screen.getByTestId('usage-by-records'));
    await waitFor(() => expect(within(screen.getByTestId('usage-table')).getAllByTestId('usage-row')[0]).toHaveTextContent('2026-11-2416124'));
    expect(screen.getByTestId('usage-summary')).toHaveTextContent('Records per kind from 2026-11-23 to 2026-11-24: 16 on the last day.');
  });

  it('says when there is no snapshot yet', async () => {
    world({ extra: (c) => (c.path.startsWith(`/api/${ACC}/_usage`) ? json(200, { days: [] }) : undefined) });
    renderScreen(<Usage />, { path: '/usage', url: '/usage' });
    expect(await screen.findByTestId('usage-empty')).toHaveTextContent('No usage yet');
  });

  it('shows the chart (lazily loaded) by default', async () => {
    world({ extra: (c) => (c.path.startsWith(`/api/${ACC}/_usage`) ? json(200, USAGE) : undefined) });
    renderScreen(<Usage />, { path: '/usage', url: '/usage' });
    const chart = await screen.findByTestId('usage-chart');
    // jsdom has no canvas: the chart says so and the table stays one click away.
    await waitFor(() => expect(chart.getAttribute('data-state')).not.toBe('loading'));
    expect(chart.querySelector('canvas')).toHaveAttribute('aria-label', 'Storage per kind of record from 2026-11-23 to 2026-11-24: 7.2 kB on the last day.');
  });
});

describe('limit banners', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('counts down to view-only, with the singular message under 2 days', async () => {
    world({ limits: { records: 1200, over_since: '2026-11-01T00:00:00Z', view_only_at: '2026-12-01T00:00:00Z' } });
    renderScreen(<LimitsBanner db={ACC} now={now} />);
    const b = await screen.findByTestId('over-limit-banner');
    expect(b).toHaveTextContent('It holds 1,200 records; the free plan allows 1,000. In 5 days (2026-12-01) it becomes view-only');
    expect(within(b).getByText('Upgrade the plan')).toHaveAttribute('href', '/billing');
  });

  it('uses the fewer-than-2-days sentence', async () => {
    world({ limits: { records: 1200, over_since: '2026-10-27T00:00:00Z', view_only_at: '2026-11-26T20:00:00Z' } });
    renderScreen(<LimitsBanner db={ACC} now={now} />);
    expect(await screen.findByTestId('over-limit-banner')).toHaveTextContent('In fewer than 2 days');
  });

  it('says a view-only Group\'s writes will fail and the way out', async () => {
    world({ limits: { records: 1300, over_since: '2026-10-01T00:00:00Z', view_only_at: '2026-10-31T00:00:00Z', view_only: true } });
    renderScreen(<LimitsBanner db={ACC} now={now} />);
    const b = await screen.findByTestId('view-only-banner');
    expect(b).toHaveTextContent('This Group is view-only');
    expect(b).toHaveTextContent('saving changes will fail. Delete records or upgrade');
    expect(within(b).getByText('Upgrade the plan')).toHaveAttribute('href', '/billing');
  });

  it('shows nothing under the limit', async () => {
    const { calls } = world({ limits: { records: 10 } });
    renderScreen(<LimitsBanner db={ACC} now={now} />);
    await waitFor(() => expect(calls.some((c) => c.path === `/api/${ACC}/_limits`)).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('over-limit-banner')).toBeNull();
    expect(screen.queryByTestId('view-only-banner')).toBeNull();
  });
});
