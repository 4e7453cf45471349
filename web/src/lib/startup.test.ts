import { describe, expect, it } from 'vitest';
import type { Membership } from './memberships';
import { accountInPath, decideStartup } from './startup';

const m = (id: string, extra: Partial<Membership> = {}): Membership => ({
  _id: `mem-${id}`,
  db_name: `acc-${id}`,
  user_id: 'usr-1',
  status: 'accepted',
  ...extra,
});

describe('decideStartup (SPEC §4)', () => {
  it('stays when an account is active or the route is exempt', () => {
    expect(decideStartup({ activeDb: 'acc-x', routeName: 'home', memberships: [m('a')] })).toEqual({ kind: 'stay' });
    for (const r of ['account#new', 'checkout', 'icons', 'subscription#checkout', 'user#profile', 'invite']) {
      expect(decideStartup({ activeDb: null, routeName: r, memberships: [m('a')] })).toEqual({ kind: 'stay' });
    }
  });
  it("stays on an address naming a Group, even one the tab does not take (the refusal page)", () => {
    expect(decideStartup({ activeDb: null, routeDb: 'acc-closed', routeName: 'tickets#index', memberships: [m('a')] })).toEqual({ kind: 'stay' });
    expect(accountInPath('/account/acc-1/tickets/new')).toBe('acc-1');
    expect(accountInPath('/account/acc-1')).toBe('acc-1');
    expect(accountInPath('/ticket-board')).toBeNull();
    expect(accountInPath('/accounts')).toBeNull();
  });
  it('goes to the only bookmarked Group', () => {
    expect(decideStartup({ activeDb: null, routeName: 'home', memberships: [m('a'), m('b', { bookmark: true }), m('c')] })).toEqual({
      kind: 'dashboard',
      accountId: 'acc-b',
    });
  });
  it('goes to the only Group', () => {
    expect(decideStartup({ activeDb: null, routeName: 'home', memberships: [m('a'), m('p', { status: 'pending', user_id: null })] })).toEqual({
      kind: 'dashboard',
      accountId: 'acc-a',
    });
  });
  it('sends a user past the confirmation deadline to the confirm screen, wherever they were', () => {
    for (const r of ['home', 'app', 'account#new', 'invite']) {
      expect(decideStartup({ activeDb: 'acc-x', routeName: r, memberships: [m('a')], confirmationExpired: true })).toEqual({ kind: 'confirm' });
    }
    for (const r of ['confirm#new', 'confirm#show', 'user#profile']) {
      expect(decideStartup({ activeDb: null, routeName: r, memberships: [], confirmationExpired: true })).toEqual({ kind: 'stay' });
    }
  });
  it('otherwise goes home with the multiple-account notice', () => {
    expect(decideStartup({ activeDb: null, routeName: 'app', memberships: [m('a'), m('b')] })).toEqual({ kind: 'home' });
    expect(decideStartup({ activeDb: null, routeName: 'app', memberships: [m('a', { bookmark: true }), m('b', { bookmark: true })] })).toEqual({
      kind: 'home',
    });
    expect(decideStartup({ activeDb: null, routeName: 'app', memberships: [] })).toEqual({ kind: 'home' });
  });
});
