// The data router: one root layout whose loader runs before every
// navigation (active db from the route, startup session fetch), and one
// lazily loaded child per route of the table, guarded by its access rule.

import { createBrowserRouter, matchRoutes, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { setRouteName } from '../lib/api';
import { withStrings } from '../lib/i18n';
import { getActiveDb, rememberedGroup, setActiveDb } from '../lib/active-db';
import { membershipsQuery, type Membership } from '../lib/memberships';
import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../lib/paths';
import { isRouteHandle, needsSignIn, type RouteHandle } from '../lib/route-handle';
import { mayUse, sessionQuery, type Session } from '../lib/session';
import { decideStartup, setMultipleAccounts } from '../lib/startup';
import { ROUTES, type RouteDef } from './route-table';
import { RootLayout } from './shell/RootLayout';
import { RouteError } from './shell/RouteError';
import { PageLoader } from '../components/PageLoader';

export async function loadSession(qc: QueryClient): Promise<Session | null> {
  try {
    return await qc.ensureQueryData(sessionQuery);
  } catch {
    return null;
  }
}


/**
 * followActiveDb makes the route's db the active one only when the user
 * may use it (the session is re-read once, for a Group just joined), so the
 * navbar never points at a Group that refused them; a stale active db the
 * user may not use is dropped.
 */
async function followActiveDb(qc: QueryClient, db: string): Promise<void> {
  let s = await loadSession(qc);
  if (s && !mayUse(s, db)) s = await qc.fetchQuery({ ...sessionQuery, staleTime: 0 }).catch(() => s);
  if (!s || mayUse(s, db)) {
    setActiveDb(db);
    return;
  }
  const prev = getActiveDb();
  if (prev && !mayUse(s, prev)) setActiveDb(null);
}

/**
 * keepUsableGroup drops a tab's Group the session may not use and, in a tab
 * without one, takes the Group last chosen on this device when the user is
 * still its member. Returns the tab's Group.
 */
function keepUsableGroup(s: Session): string | null {
  const cur = getActiveDb();
  if (cur && mayUse(s, cur)) return cur;
  if (cur) setActiveDb(null);
  const last = rememberedGroup();
  if (last && s.roles.includes(last)) {
    setActiveDb(last);
    return last;
  }
  return null;
}

/**
 * groupForRoute finds the Group of an account route whose address carries
 * none (/ticket-board, /disk, /usage…; SPEC §2): the tab's, else the one
 * last chosen on this device, else SPEC §4's choice (the only bookmarked
 * Group, or the only Group). Null when the user must pick one.
 */
async function groupForRoute(qc: QueryClient, s: Session): Promise<string | null> {
  const kept = keepUsableGroup(s);
  if (kept) return kept;
  const memberships = await qc.fetchQuery(membershipsQuery(s.userId)).catch((): Membership[] => []);
  const d = decideStartup({ activeDb: null, routeName: 'app', memberships });
  if (d.kind !== 'dashboard' || !mayUse(s, d.accountId)) return null;
  setActiveDb(d.accountId);
  return d.accountId;
}

function guard(qc: QueryClient, def: RouteDef) {
  return async ({ request, params }: LoaderFunctionArgs) => {
    if (!needsSignIn(def.access)) return null;
    const session = await loadSession(qc);
    const url = new URL(request.url);
    if (!session) throw redirect(paths.login(url.pathname + url.search));
    // Signed in: from here on a screen's reads go out together (lib/batch.ts), the page load's too.
    await import('../lib/batch').then((m) => m.installBatching());
    if (def.access === 'account' && !params.account_id && !(await groupForRoute(qc, session))) {
      setMultipleAccounts(true);
      throw redirect(paths.home(url.pathname + url.search));
    }
    return null;
  };
}

export function buildRoutes(qc: QueryClient): RouteObject[] {
  const children: RouteObject[] = ROUTES.map((def) => {
    const handle: RouteHandle = { name: def.name, access: def.access, ...(def.set ? { set: def.set } : {}), ...(def.bare ? { bare: true } : {}) };
    // Every screen but the landing page uses the features' shared strings.
    const base = { handle, loader: guard(qc, def), lazy: withStrings(def.load, { featureScreen: def.name !== 'home' }) };
    return def.path === '' ? { index: true, ...base } : { path: def.path, ...base };
  });
  const root: RouteObject = {
    id: 'root',
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => <PageLoader />,
    // Before every navigation: the route's account id becomes the active db.
    shouldRevalidate: () => true,
    loader: async ({ params, request }) => {
      const leaf = matchRoutes(children, new URL(request.url).pathname)?.at(-1)?.route.handle;
      if (isRouteHandle(leaf)) setRouteName(leaf.name);
      if (params.account_id) await followActiveDb(qc, params.account_id);
      else {
        const s = await loadSession(qc);
        if (s) keepUsableGroup(s);
      }
      return null;
    },
    children,
  };
  return [root];
}

export function createAppRouter(qc: QueryClient) {
  return createBrowserRouter(buildRoutes(qc));
}
