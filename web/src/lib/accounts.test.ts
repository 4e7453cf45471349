import { describe, expect, it } from 'vitest';
import { isAdminOf, switchable } from './accounts';
import { fetchOpenTickets } from './open-tickets';
import type { Membership } from './memberships';
import type { Session } from './session';
import { json, mockFetch } from '../test/utils';

const session: Session = { userId: 'usr-1', roles: ['usr-1', 'acc-a'], locale: 'en', accountRoles: ['acc-a'], isServerAdmin: false };

describe('admins (SPEC §6)', () => {
  it('from the security document (names or roles) or the account admin_roles', () => {
    expect(isAdminOf(session, { admins: { names: ['usr-1'] } })).toBe(true);
    expect(isAdminOf(session, { admins: { roles: ['acc-a'] } })).toBe(true);
    expect(isAdminOf(session, { admins: { names: ['usr-2'] } }, { _id: 'acc-a', admin_roles: ['usr-1'] })).toBe(true);
    expect(isAdminOf(session, { admins: { names: ['usr-2'] } }, { _id: 'acc-a', admin_roles: [] })).toBe(false);
    expect(isAdminOf(null, { admins: { names: ['usr-1'] } })).toBe(false);
  });
});

describe('account switcher (SPEC §2)', () => {
  it('lists memberships minus pending ones and the current Group', () => {
    const ms: Membership[] = [
      { _id: 'mem-1', db_name: 'acc-a', status: 'accepted', user_id: 'usr-1' },
      { _id: 'mem-2', db_name: 'acc-b', status: 'accepted', user_id: 'usr-1' },
      { _id: 'mem-3', db_name: 'acc-c', status: 'pending' },
    ];
    expect(switchable(ms, 'acc-a').map((m) => m._id)).toEqual(['mem-2']);
    expect(switchable(ms, null).map((m) => m._id)).toEqual(['mem-1', 'mem-2']);
  });
});

describe('open-ticket counter (SPEC §7)', () => {
  it('reads rows[0].value of the group_level=0 view; 0 when empty or failing', async () => {
    mockFetch(() => json(200, { rows: [{ key: null, value: 12 }] }));
    await expect(fetchOpenTickets('acc-a')).resolves.toBe(12);
    mockFetch(() => json(200, { rows: [] }));
    await expect(fetchOpenTickets('acc-a')).resolves.toBe(0);
    mockFetch(() => json(500, { error: 'internal_server_error', reason: 'boom' }));
    await expect(fetchOpenTickets('acc-a')).resolves.toBe(0);
  });
});
