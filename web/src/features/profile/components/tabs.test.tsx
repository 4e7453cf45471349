// The profile's groups, invites and user_tokens tabs against a fetch double.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../../test/utils';
import { GroupsTab } from './GroupsTab';
import { InvitesTab } from './InvitesTab';
import { TokensTab } from './TokensTab';

const ME = 'usr-0123456789abcdef0123456789abcdef';
const ACC = 'acc-0123456789abcdef0123456789abcdef';
const ACC2 = 'acc-fedcba9876543210fedcba9876543210';

const MEMBERSHIPS = [
  { _id: 'mem-1', klass: 'Membership', db_name: ACC, name: 'Oficina do Zé', status: 'accepted', user_id: ME, bookmark: false, editor: true },
  { _id: 'mem-2', klass: 'Membership', db_name: ACC2, name: 'Bia Reparos', status: 'pending', email: 'ana@example.com' },
];

function backend(extra?: (c: Call) => Response | undefined) {
  return mockFetch((c) => {
    const r = extra?.(c);
    if (r) return r;
    if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME, ACC] } });
    if (c.path === `/api/${ME}/_find` && (c.body as { selector: { klass: string } }).selector.klass === 'Membership') return json(200, { docs: MEMBERSHIPS });
    return undefined;
  });
}

describe('groups tab', () => {
  it('lists accepted memberships and bookmarks one', async () => {
    const { calls } = backend((c) => (c.method === 'PUT' ? json(200, { ok: true, id: 'mem-1', rev: '2-a' }) : undefined));
    renderScreen(<GroupsTab userId={ME} />);
    const rows = await screen.findAllByTestId('group-row');
    expect(rows).toHaveLength(1);
    expect(within(rows[0]!).getByRole('link', { name: 'Oficina do Zé' })).toHaveAttribute('href', `/account/${ACC}`);
    await userEvent.setup().click(within(rows[0]!).getByTestId('bookmark-toggle'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === `/api/${ME}/_design/bookmark/_update/true/mem-1`)).toBe(true));
    expect(screen.getByTestId('tab-refresh')).toBeInTheDocument();
  });
});

describe('invites tab (SPEC §4)', () => {
  it('the accept button waits for a confirmed email', async () => {
    backend();
    renderScreen(<InvitesTab userId={ME} user={{ _id: ME, email: 'ana@example.com', confirmed_at: null }} />);
    const card = await screen.findByTestId('invite-card');
    expect(within(card).getByTestId('accept-invite')).toBeDisabled();
    expect(screen.getByTestId('confirm-to-accept')).toHaveTextContent('You need to confirm your email to use this feature');
  });

  it('an unconfirmed email is told why no invitation shows (the server lists them once it is confirmed)', async () => {
    backend((c) => (c.path === `/api/${ME}/_find` ? json(200, { docs: [] }) : undefined));
    renderScreen(<InvitesTab userId={ME} user={{ _id: ME, email: 'ana@example.com', confirmed_at: null }} />);
    expect(await screen.findByTestId('confirm-to-accept')).toHaveTextContent('You need to confirm your email to use this feature');
    expect(screen.queryByTestId('tab-invites-empty')).toBeNull();
  });

  it('accepting goes to the Group’s dashboard', async () => {
    const { calls } = backend((c) => (c.method === 'PUT' ? json(200, { ok: true, id: 'mem-2', rev: '2-a' }) : undefined));
    const { router } = renderScreen(<InvitesTab userId={ME} user={{ _id: ME, email: 'ana@example.com', confirmed_at: '2025-01-01T00:00:00Z' }} />);
    const card = await screen.findByTestId('invite-card');
    expect(card).toHaveTextContent('Bia Reparos');
    await userEvent.setup().click(within(card).getByTestId('accept-invite'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/account/${ACC2}`));
    expect(calls.some((c) => c.method === 'PUT' && c.path === `/api/${ACC2}/_design/status/_update/accept/mem-2`)).toBe(true);
  });
});

describe('user_tokens tab', () => {
  it('creates a token, shows its secret once with a copy button, and revokes after confirming', async () => {
    let tokens: Array<Record<string, unknown>> = [];
    const { calls } = backend((c) => {
      if (c.path === `/api/${ME}/_find` && (c.body as { selector: { klass: string } }).selector.klass === 'UserToken') return json(200, { docs: tokens });
      if (c.path === `/api/${ME}/_design/token/_update/create`) {
        tokens = [{ _id: 'tok-1', klass: 'UserToken', description: 'CI', permissions: 'read-write', active: true, created_at: '2025-05-01T10:00:00Z' }];
        return json(201, { ok: true, id: 'tok-1', rev: '1-a', token: 'oft_secret123' });
      }
      if (c.path === `/api/${ME}/_design/token/_update/revoke/tok-1`) {
        tokens = [];
        return json(200, { ok: true, id: 'tok-1', rev: '2-a' });
      }
      return undefined;
    });
    renderScreen(<TokensTab userId={ME} />);
    expect(await screen.findByTestId('tab-user_tokens-empty')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Description'), 'CI');
    await user.selectOptions(screen.getByLabelText('Permissions'), 'read-write');
    await user.click(screen.getByLabelText('Oficina do Zé'));
    await user.click(screen.getByTestId('token-create'));
    expect(await screen.findByTestId('token-secret-value')).toHaveTextContent('oft_secret123');
    expect(screen.getByTestId('token-copy')).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/_update/create'))?.body).toEqual({ description: 'CI', permissions: 'read-write', dbs: [ACC] });
    const row = await screen.findByTestId('token-row');
    expect(row).toHaveTextContent('Read and write');
    await user.click(screen.getByText('I saved it'));
    expect(screen.queryByTestId('token-secret')).toBeNull();

    await user.click(within(row).getByTestId('token-revoke'));
    expect(await screen.findByTestId('token-revoke-modal')).toHaveTextContent('“CI” stops working at once');
    expect(calls.some((c) => c.path.includes('/revoke/'))).toBe(false);
    await user.click(screen.getByTestId('token-revoke-confirm'));
    expect(await screen.findByTestId('tab-user_tokens-empty')).toBeInTheDocument();
  });
});
