// The page frame: navbar, version notice, the routed screen, footer, and the
// re-login modal raised by the API client's "logged-out" event (SPEC §4).

import { View } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useNavigate, useParams } from 'react-router';
import { setActiveDb, useActiveDb } from '../../lib/active-db';
import { useCurrentUser } from '../../lib/current-user';
import { ApiError, asApiError } from '../../lib/errors';
import { withStrings } from '../../lib/i18n';
import { limitsQuery } from '../../lib/limits';
import { onAppEvent } from '../../lib/events';
import { paths } from '../../lib/paths';
import { needsSignIn, useRouteHandle } from '../../lib/route-handle';
import { logout, mayUse, SESSION_KEY, sessionQuery, useSession } from '../../lib/session';
import { setMultipleAccounts } from '../../lib/startup';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { useStartup } from './useStartup';
import { GroupRefused } from './GroupRefused';
import { VersionNotice } from './VersionNotice';

// What only a session shows loads on its own, after the shell: the limits
// banner, and the re-login form once a session ends.
const LimitsBanner = lazy(() => import('../../components/LimitsBanner').then((m) => ({ default: m.LimitsBanner })));
// A shell error (a failed sign-out or session read) is rare: its alert loads when one happens.
const ErrorAlert = lazy(() => import('../../components/ErrorAlert').then((m) => ({ default: m.ErrorAlert })));
const ReloginModal = lazy(withStrings(() => import('../../features/auth/components/ReloginModal').then((m) => ({ default: m.ReloginModal }))));

export function RootLayout() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const handle = useRouteHandle();
  const { data: user } = useCurrentUser();
  const activeDb = useActiveDb();
  // A Group of the address the session may not use: one refusal page, not
  // the screen's chrome above a "Forbidden" (issue 22 item 8).
  const { account_id: routeDb } = useParams();
  const refused = !!session && !!routeDb && handle.access === 'account' && !mayUse(session, routeDb);
  const [relogin, setRelogin] = useState(false);
  const [shellError, setShellError] = useState<ApiError | null>(null);
  useStartup();

  const signInRoute = needsSignIn(handle.access);
  // The limits banner's read, started here so that it goes out with the screen's reads in one batch;
  // the banner, a chunk that loads after the shell, finds it in the cache.
  const banner = !!session && handle.access === 'account' && !refused;
  useQuery({ ...limitsQuery(activeDb ?? ''), enabled: banner && !!activeDb?.startsWith('acc-') });
  useEffect(
    () =>
      onAppEvent('logged-out', () => {
        if (signInRoute) setRelogin(true);
        else qc.setQueryData(SESSION_KEY, null);
      }),
    [qc, signInRoute],
  );

  const onRelogged = useCallback(async () => {
    setRelogin(false);
    setShellError(null);
    await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
    // Clear what failed while signed out and load it again.
    await qc.resetQueries({ predicate: (q) => q.state.status === 'error' });
    await qc.invalidateQueries();
  }, [qc]);

  const onLogout = useCallback(async () => {
    try {
      await logout();
    } catch (err) {
      const e = asApiError(err);
      if (e.status !== 401) {
        setShellError(new ApiError(e.status, e.error, 'Logout failed, please clear your cookies'));
        return;
      }
    }
    setActiveDb(null);
    setMultipleAccounts(false);
    qc.setQueryData(SESSION_KEY, null);
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    navigate(paths.login());
  }, [qc, navigate]);

  return (
    <View className="app-frame" data-route={handle.name}>
      {handle.bare ? null : <Navbar session={session} onLogout={onLogout} userLabel={user?.fullname || user?.email || ''} />}
      <VersionNotice />
      {banner ? (
        <Suspense fallback={null}>
          <LimitsBanner db={activeDb} />
        </Suspense>
      ) : null}
      {shellError ? (
        <View className="shell-error">
          <Suspense fallback={null}>
            <ErrorAlert error={shellError} onDismiss={() => setShellError(null)} />
          </Suspense>
        </View>
      ) : null}
      <main id="main" className="app-main" tabIndex={-1}>
        {refused && session && routeDb ? <GroupRefused db={routeDb} userId={session.userId} /> : <Outlet />}
      </main>
      {handle.bare ? null : <Footer />}
      {relogin && signInRoute ? (
        <Suspense fallback={null}>
          <ReloginModal open onSuccess={onRelogged} />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </View>
  );
}
