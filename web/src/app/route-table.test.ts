// Every path of SPEC §2's route table resolves to a named screen that loads.

import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeQueryClient } from '../lib/query-client';
import { isRouteHandle } from '../lib/route-handle';
import { buildRoutes } from './router';
import { FULL_SETS, ROUTES } from './route-table';

const A = '/account/acc-0123456789abcdef0123456789abcdef';
const R = 'tik-0123456789abcdef0123456789abcdef';

const SPEC: Array<[string, string, string]> = [
  ['/', 'home', 'public'],
  ['/app', 'app', 'user-no-account'],
  ['/app.html', 'appHtml', 'user-no-account'],
  ['/user/login', 'user#login', 'public'],
  ['/user/register', 'user#register', 'public'],
  ['/user/profile', 'user#profile', 'user'],
  ['/user/confirm/new', 'confirm#new', 'public'],
  ['/user/confirm/abc123', 'confirm#show', 'public'],
  ['/user/password/new', 'password#new', 'public'],
  ['/user/password/abc123', 'password#show', 'public'],
  ['/account/new', 'account#new', 'user-no-account'],
  [A, 'dashboard', 'account'],
  [`${A}/admin`, 'admin', 'account'],
  ['/disk', 'disk#index', 'account'],
  ['/disk/fle-1', 'disk#show', 'account'],
  ['/ticket-board', 'tickets#board', 'account'],
  ['/wallets-upload', 'wallets#upload', 'account'],
  ['/wiki', 'wiki#index', 'account'],
  ['/usage', 'subscription#usage', 'account'],
  ['/billing', 'subscription#billing', 'account'],
  ['/checkout/ppr-1', 'subscription#checkout', 'account'],
  ['/checkout/free', 'subscription#checkout', 'account'],
  ['/checkout', 'checkout', 'user-no-account'],
  ['/noop', 'noop', 'public'],
  [`${A}/noop`, 'adminnoop', 'account'],
  ['/icons', 'icons', 'public'],
  ['/terms-and-conditions.html', 'terms', 'public'],
  ['/privacy-policy.html', 'privacy', 'public'],
  ['/refund-policy.html', 'refund', 'public'],
  ['/disclaimer.html', 'disclaimer', 'public'],
  ...FULL_SETS.flatMap((set): Array<[string, string, string]> => [
    [`${A}/${set}`, `${set}#index`, 'account'],
    [`${A}/${set}/new`, `${set}#new`, 'account'],
    [`${A}/${set}/${R}`, `${set}#show`, 'account'],
    [`${A}/${set}/${R}/edit`, `${set}#edit`, 'account'],
  ]),
  [`${A}/groups`, 'groups#index', 'account'],
  [`${A}/groups/new`, 'groups#new', 'account'],
  [`${A}/comments/cmt-1`, 'comments#show', 'account'],
  [`${A}/reader_items`, 'reader_items#index', 'account'],
  [`${A}/reader_items/rit-1`, 'reader_items#show', 'account'],
  [`${A}/users/usr-1`, 'users#show', 'account'],
];

describe('route table (SPEC §2)', () => {
  const routes = buildRoutes(makeQueryClient());

  it('has the 17 full resource sets', () => {
    expect(FULL_SETS).toHaveLength(17);
  });

  it.each(SPEC)('%s → %s (%s)', async (path, name, access) => {
    const matches = matchRoutes(routes, path);
    expect(matches, path).not.toBeNull();
    const leaf = matches!.at(-1)!.route;
    expect(isRouteHandle(leaf.handle) && leaf.handle.name).toBe(name);
    expect(isRouteHandle(leaf.handle) && leaf.handle.access).toBe(access);
    expect(typeof leaf.lazy).toBe('function');
    const mod = await (leaf.lazy as () => Promise<{ Component?: unknown }>)();
    expect(typeof mod.Component).toBe('function');
  });

  it('an unknown path is the not-found screen', () => {
    const leaf = matchRoutes(routes, '/no/such/page')!.at(-1)!.route;
    expect(isRouteHandle(leaf.handle) && leaf.handle.name).toBe('not-found');
  });

  it('every entity prefix has a plural#show route', async () => {
    const { SET_BY_PREFIX } = await import('../lib/paths');
    for (const set of Object.values(SET_BY_PREFIX)) {
      if (set === 'users') continue;
      const leaf = matchRoutes(routes, `${A}/${set}/x-1`)?.at(-1)?.route;
      expect(isRouteHandle(leaf?.handle) && leaf.handle.name, set).toBe(`${set}#show`);
    }
  });

  it('route names are unique', () => {
    const names = ROUTES.map((r) => r.name).filter((n) => n !== 'appHtml' && n !== 'disk#show');
    expect(new Set(names).size).toBe(names.length);
  });
});
