// The Group screens against a fetch double: membership detail (not found,
// the disabled New button, Edit only when allowed), account#new's limit
// message, and the dashboard's confirmation card, timeline and balances.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderScreen, type Call } from '../../../test/utils';
import { BalancesPanel } from '../components/BalancesPanel';
import { ConfirmEmailCard } from '../components/ConfirmEmailCard';
import { Timeline } from '../components/Timeline';
import { Component as AccountNew } from './AccountNew';
import { Component as Dashboard } from './Dashboard';
import { Component as MembershipShow } from './MembershipShow';
import { Component as MembershipsIndex } from './MembershipsIndex';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const ME = 'usr-0123456789abcdef0123456789abcdef';
const OTHER = 'usr-fedcba9876543210fedcba9876543210';
const MEM = 'mem-0123456789abcdef0123456789abcdef';

function backend(opts: { confirmed: boolean; admin: boolean; membership?: Record<string, unknown> | null }, more?: (c: Call) => Response | undefined) {
  return mockFetch((c: Call) => {
    const answer = more?.(c);
    if (answer) return answer;
    if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME, ACC], locale: 'en' } });
    if (c.path.startsWith(`/api/_users/${ME}`))
      return json(200, { _id: ME, _rev: '1-a', email: 'ana@example.com', confirmed_at: opts.confirmed ? '2025-01-01T00:00:00Z' : null, confirmation_sent_at: new Date().toISOString() });
    if (c.path === `/api/${ACC}/_security`) return json(200, { admins: { names: opts.admin ? [ME] : [], roles: [] }, members: { roles: [ACC] } });
    if (c.path.startsWith(`/api/accounts/${ACC}`)) return json(200, { _id: ACC, _rev: '1-a', name: 'Oficina do Zé', admin_roles: opts.admin ? [ME] : [] });
    if (c.path === `/api/${ACC}/${MEM}`) {
      return opts.membership ? json(200, opts.membership) : json(404, { error: 'not_found', reason: 'missing' });
    }
    if (c.path.endsWith('/_find')) return json(200, { docs: [] });
    return undefined;
  });
}

const card = { key: '', itemId: '', itemType: '', event: 'update', events: [], label: '', who: null, at: null, changed: [], count: 1 };

/** What the server's modules declare (GET /api/_labels), in part. */
const VOCABULARY = {
  klasses: {
    Ticket: { name: { en: 'Ticket', 'pt-BR': 'Chamado' }, fields: { status: { en: 'Status', 'pt-BR': 'Situação' } }, internal: ['status_at'] },
    Customer: { name: { en: 'Customer', 'pt-BR': 'Cliente' }, fields: {}, internal: [] },
    CloudFile: {
      name: { en: 'File', 'pt-BR': 'Arquivo' },
      fields: { versions: { en: 'Content', 'pt-BR': 'Conteúdo' }, size: { en: 'Size', 'pt-BR': 'Tamanho' } },
      internal: ['bytes', 'stage'],
    },
    Bookmark: { name: { en: 'Link', 'pt-BR': 'Link' }, fields: {}, internal: [] },
  },
  actors: { _reader: { en: 'Feed reader', 'pt-BR': 'Leitor de feeds' } },
};

const showAt = { path: '/account/:account_id/memberships/:record_id', url: `/account/${ACC}/memberships/${MEM}` };

describe('membership detail (SPEC §2)', () => {
  it('a missing record shows the not-found empty state', async () => {
    backend({ confirmed: true, admin: true, membership: null });
    renderScreen(<MembershipShow />, showAt);
    const empty = await screen.findByTestId('membership-not-found');
    expect(empty).toHaveTextContent('Not found');
    expect(empty).toHaveTextContent('Could not find this Member subscription');
    expect(screen.queryByTestId('edit-membership')).toBeNull();
  });

  it('New is disabled with the confirm-email message until the email is confirmed', async () => {
    backend({ confirmed: false, admin: true, membership: { _id: MEM, _rev: '1-a', klass: 'Membership', email: 'bia@example.com', user_id: OTHER } });
    renderScreen(<MembershipShow />, showAt);
    expect(await screen.findByTestId('new-membership-disabled')).toHaveTextContent('You need to confirm your email to use this feature');
    expect(screen.getByTestId('new-membership')).toBeDisabled();
  });

  it('an admin sees Edit on someone else’s membership, with the details, comments and history', async () => {
    backend({ confirmed: true, admin: true, membership: { _id: MEM, _rev: '1-a', klass: 'Membership', email: 'bia@example.com', user_id: OTHER, status: 'accepted', editor: false } });
    renderScreen(<MembershipShow />, showAt);
    expect(await screen.findByTestId('edit-membership')).toHaveAttribute('href', `/account/${ACC}/memberships/${MEM}/edit`);
    expect(screen.getByTestId('new-membership')).toHaveAttribute('href', `/account/${ACC}/memberships/new`);
    expect(within(screen.getByTestId('detail-list')).getByText('bia@example.com')).toBeInTheDocument();
    expect(screen.getByTestId('comments-panel')).toBeInTheDocument();
    expect(screen.getByTestId('history-panel')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumbs' })).toHaveTextContent(/Dashboard.*Admin.*Memberships/);
  });

  it('no Edit on one’s own membership, nor for a regular member', async () => {
    backend({ confirmed: true, admin: true, membership: { _id: MEM, _rev: '1-a', klass: 'Membership', email: 'ana@example.com', user_id: ME } });
    const { unmount } = renderScreen(<MembershipShow />, showAt);
    await screen.findByText('ana@example.com', { selector: 'dd' });
    expect(screen.queryByTestId('edit-membership')).toBeNull();
    unmount();
    backend({ confirmed: true, admin: false, membership: { _id: MEM, _rev: '1-a', klass: 'Membership', email: 'bia@example.com', user_id: OTHER } });
    renderScreen(<MembershipShow />, showAt);
    await screen.findByText('bia@example.com', { selector: 'dd' });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('edit-membership')).toBeNull();
  });
});

describe('members the app no longer mails (issue 24, SES feedback)', () => {
  const GONE = 'mem-fedcba9876543210fedcba9876543210';
  const members = [
    { _id: MEM, _rev: '1-a', klass: 'Membership', email: 'bia@example.com', user_id: OTHER, status: 'accepted', created_at: '2026-05-01T10:00:00Z' },
    { _id: GONE, _rev: '1-a', klass: 'Membership', email: 'gone@example.com', status: 'pending', created_at: '2026-05-02T10:00:00Z' },
  ];
  const suppressed = { [GONE]: { address: 'gone@example.com', reason: 'bounce', detail: 'Permanent General: smtp; 550 5.1.1 user unknown', kind: 'invite', at: '2026-05-04T12:00:02Z' } };
  function listBackend() {
    return backend({ confirmed: true, admin: true }, (c: Call) => {
      if (c.path === `/api/${ACC}/_mail/suppressed`) return json(200, { memberships: suppressed });
      if (c.path === `/api/${ACC}/_find`) return json(200, { docs: members });
      if (c.path === `/api/${ACC}/${GONE}`) return json(200, members[1]);
      return undefined;
    });
  }

  it('the member list marks the bounced address, and only that row', async () => {
    const calls = listBackend();
    renderScreen(<MembershipsIndex />, { path: '/account/:account_id/memberships', url: `/account/${ACC}/memberships` });
    const marker = await screen.findByTestId('mail-suppressed');
    expect(marker).toHaveTextContent('Mail bounced');
    expect(marker).toHaveAttribute('title', expect.stringContaining('gone@example.com bounced for good'));
    const row = marker.closest('tr')!;
    expect(within(row).getByText(/gone@example\.com/)).toBeInTheDocument();
    expect(screen.getAllByTestId('mail-suppressed')).toHaveLength(1);
    expect(calls.calls.some((c) => c.path === `/api/${ACC}/_mail/suppressed`)).toBe(true);
  });

  it('the membership detail says why the app no longer mails it', async () => {
    listBackend();
    renderScreen(<MembershipShow />, { path: '/account/:account_id/memberships/:record_id', url: `/account/${ACC}/memberships/${GONE}` });
    const alert = await screen.findByTestId('mail-suppressed-alert');
    expect(alert).toHaveTextContent('Mail bounced');
    expect(alert).toHaveTextContent('Ask this person for an address that works');
  });
});

describe('account#new', () => {
  it('shows the server’s free-Group limit message and creates nothing more', async () => {
    const { calls } = mockFetch((c) => {
      if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME] } });
      if (c.path === '/api/accounts' && c.method === 'POST')
        return json(403, { error: 'forbidden', reason: 'You can have only 1 free Group, please confirm email to unlock more' });
      return undefined;
    });
    renderScreen(<AccountNew />, { path: '/account/new', url: '/account/new' });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('group-create'));
    expect(await screen.findByText("can't be blank")).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/accounts')).toBe(false);
    await user.type(screen.getByLabelText(/Name/), 'Second');
    await user.click(screen.getByTestId('group-create'));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can have only 1 free Group. Confirm your email');
    expect(calls.find((c) => c.path === '/api/accounts')?.body).toEqual({ name: 'Second' });
  });
});

describe('dashboard pieces', () => {
  const DAY = 24 * 60 * 60 * 1000;
  it('the confirmation card counts the days left, in the singular under 2', () => {
    const now = Date.parse('2025-03-10T00:00:00Z');
    const sent = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
    const { unmount } = renderScreen(<ConfirmEmailCard user={{ _id: ME, email: 'a@b.c', confirmation_sent_at: sent(5) }} now={now} />);
    expect(screen.getByTestId('confirm-days-left')).toHaveTextContent('25 days left');
    unmount();
    renderScreen(<ConfirmEmailCard user={{ _id: ME, email: 'a@b.c', confirmation_sent_at: sent(28.5) }} now={now} />);
    expect(screen.getByTestId('confirm-days-left')).toHaveTextContent('Less than 2 days left');
  });

  it('no card once the email is confirmed', () => {
    renderScreen(<ConfirmEmailCard user={{ _id: ME, email: 'a@b.c', confirmed_at: '2025-01-01T00:00:00Z' }} />);
    expect(screen.queryByTestId('confirm-email-card')).toBeNull();
  });

  it('change cards link to the record’s show route with created/updated/destroyed labels', async () => {
    mockFetch((c) => (c.path === '/api/_labels' ? json(200, VOCABULARY) : undefined));
    renderScreen(
      <Timeline
        db={ACC}
        loading={false}
        cards={[
          { ...card, key: '1', itemId: 'tik-1', itemType: 'Ticket', event: 'update', events: ['update', 'status'], label: 'Screen broken', who: { _id: ME, label: 'Ana' }, changed: ['status', 'status_at'] },
          { ...card, key: '2', itemId: 'cus-1', itemType: 'Customer', event: 'create', label: 'Zé' },
          { ...card, key: '3', itemId: 'cus-2', itemType: 'Customer', event: 'destroy', label: 'Old' },
        ]}
      />,
    );
    const cards = await screen.findAllByTestId('change-card');
    expect(cards.map((c) => c.dataset.event)).toEqual(['updated', 'created', 'destroyed']);
    expect(within(cards[0]!).getByRole('link', { name: 'Screen broken' })).toHaveAttribute('href', `/account/${ACC}/tickets/tik-1`);
    await waitFor(() => expect(cards[0]).toHaveTextContent('by Ana · changed Status'));
    expect(cards[0]).not.toHaveTextContent('status_at');
    expect(within(cards[1]!).getByRole('link', { name: 'Zé' })).toHaveAttribute('href', `/account/${ACC}/customers/cus-1`);
    expect(within(cards[2]!).queryByRole('link')).toBeNull();
    expect(cards[2]).toHaveTextContent('Deleted');
  });

  it('speaks in plain words in pt-BR: declared labels only, processes by name (issue 22 item 9)', async () => {
    mockFetch((c) => (c.path === '/api/_labels' ? json(200, VOCABULARY) : undefined));
    await i18n.changeLanguage('pt-BR');
    try {
      renderScreen(
        <Timeline
          db={ACC}
          loading={false}
          cards={[
            { ...card, key: '1', itemId: 'fle-1', itemType: 'CloudFile', events: ['update', 'attach'], label: 'nota.pdf', who: { _id: ME, label: 'Ana' }, changed: ['bytes', 'size', 'versions', 'stage'], count: 5 },
            { ...card, key: '2', itemId: 'bkm-1', itemType: 'Bookmark', event: 'create', label: 'Manual', who: { _id: '_reader', label: 'exoreader' } },
            { ...card, key: '3', itemId: 'cus-1', itemType: 'Customer', who: { _id: '_wiki', label: 'wiki' }, changed: ['payload', 'item_id', 'item_type'] },
          ]}
        />,
      );
      const cards = await screen.findAllByTestId('change-card');
      await waitFor(() => expect(cards[0]).toHaveTextContent('por Ana · mudou Tamanho, Conteúdo · 5 alterações'));
      expect(within(cards[0]!).getByTestId('change-klass')).toHaveTextContent('Arquivo');
      expect(within(cards[0]!).getByTestId('change-event')).toHaveTextContent('Arquivo enviado');
      expect(within(cards[1]!).getByTestId('change-klass')).toHaveTextContent('Link');
      expect(cards[1]).toHaveTextContent('por Leitor de feeds');
      expect(cards[1]).not.toHaveTextContent('exoreader');
      // An undeclared process is "Oficina", undeclared fields are never named.
      expect(cards[2]).toHaveTextContent('por Oficina');
      expect(cards[2]).not.toHaveTextContent(/mudou|payload|item_id|wiki/);
      for (const c of cards) expect(c).not.toHaveTextContent(/bytes|stage|versions|Bookmark/);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('balances: 3 placeholder rows while loading, then nothing when the view is missing', async () => {
    let answer: (r: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((r) => (answer = r)));
    renderScreen(<BalancesPanel db={ACC} />);
    const loading = await screen.findByTestId('balances-loading');
    expect(loading.querySelectorAll('.amplify-placeholder')).toHaveLength(3);
    answer(json(404, { error: 'not_found', reason: 'missing_named_view' }));
    await waitFor(() => expect(screen.queryByTestId('balances-loading')).toBeNull());
    expect(screen.queryByTestId('balances')).toBeNull();
  });

  it('the dashboard reads the last 20 changes and shows the open-ticket counter', async () => {
    const { calls } = mockFetch((c) => {
      if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME, ACC] } });
      if (c.path === `/api/${ACC}`) return json(200, { db_name: ACC, update_seq: 45, doc_count: 3 });
      if (c.path.startsWith(`/api/${ACC}/_changes`))
        return json(200, { last_seq: 45, results: [{ seq: 44, id: 'cus-1', changes: [{ rev: '1-a' }], doc: { _id: 'cus-1', _rev: '1-a', klass: 'Customer', name: 'Zé' } }] });
      if (c.path.includes('count-by-open-ticket-priority')) return json(200, { rows: [{ key: null, value: 7 }] });
      return undefined;
    });
    renderScreen(<Dashboard />, { path: '/account/:account_id', url: `/account/${ACC}` });
    expect(await screen.findByRole('link', { name: 'Zé' })).toHaveAttribute('href', `/account/${ACC}/customers/cus-1`);
    expect(calls.some((c) => c.path === `/api/${ACC}/_changes?include_docs=true&descending=true&limit=20`)).toBe(true);
    await waitFor(() => expect(screen.getByTestId('open-tickets-card').querySelector('.counter-badge')).toHaveTextContent('7'));
    expect(screen.getByTestId('open-tickets-card').querySelector('.counter-badge')).toHaveAttribute('data-tone', 'orange');
  });
});
