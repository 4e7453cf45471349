// Issue 22 item 7: a Group-less module address (/ticket-board, /disk…)
// opened in a tab with no Group of its own starts in the Group last chosen
// on the device, else in the only Group, else on home's group choice,
// which goes back to the address asked for.

import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getActiveDb, setActiveDb } from '../lib/active-db';
import { KEYS } from '../lib/storage';
import { json, mockFetch, renderRoutes } from '../test/utils';
import { buildRoutes } from './router';

const USER = 'usr-0123456789abcdef0123456789abcdef';
const A = 'acc-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'acc-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
// The guard reads the session and the memberships: give a loaded machine time.
const SLOW = { timeout: 5000 };

function membership(db: string) {
  return { _id: `mem-${db.slice(4)}`, klass: 'Membership', db_name: db, name: db, status: 'accepted', user_id: USER };
}

function renderApp(url: string, roles: string[], memberships: unknown[]) {
  mockFetch((c) => {
    if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: USER, roles: [USER, ...roles] } });
    if (c.path === `/api/${USER}/_find`) return json(200, { docs: memberships });
    if (c.path.includes('/_find')) return json(200, { docs: [] });
    return undefined;
  });
  return renderRoutes(buildRoutes, url).router;
}

/** A fresh tab: no Group of its own; the device may remember one. */
function freshTab(remembered: string | null) {
  setActiveDb(null);
  if (remembered) localStorage.setItem(KEYS.lastGroup, remembered);
  else localStorage.removeItem(KEYS.lastGroup);
}

afterEach(() => {
  vi.unstubAllGlobals();
  setActiveDb(null);
  localStorage.removeItem(KEYS.lastGroup);
});

describe('Group-less addresses opened in a fresh tab', () => {
  it('start in the Group last chosen on the device', async () => {
    freshTab(B);
    const router = renderApp('/ticket-board', [A, B], [membership(A), membership(B)]);
    await waitFor(() => expect(getActiveDb()).toBe(B), SLOW);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'), SLOW);
    expect(router.state.location.pathname).toBe('/ticket-board');
  });

  it('never start in a remembered Group the user no longer belongs to: the only Group instead', async () => {
    freshTab(B);
    const router = renderApp('/disk', [A], [membership(A)]);
    await waitFor(() => expect(getActiveDb()).toBe(A), SLOW);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'), SLOW);
    expect(router.state.location.pathname).toBe('/disk');
  });

  it('with several Groups and none remembered, go to the group choice with the way back', async () => {
    freshTab(null);
    const router = renderApp('/usage?view=table', [A, B], [membership(A), membership(B)]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), SLOW);
    expect(router.state.location.search).toBe(`?return=${encodeURIComponent('/usage?view=table')}`);
    expect(getActiveDb()).toBeNull();
  });

  it('a Group chosen in a tab becomes the one a fresh tab starts in', () => {
    freshTab(null);
    setActiveDb(A);
    expect(localStorage.getItem(KEYS.lastGroup)).toBe(A);
  });
});
