// SPEC §4 "Startup and session": the locale from the session (or the
// browser's when signed out), and once the user id is first known, the
// memberships rebuild and the one-Group auto-navigation.

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { getActiveDb } from '../../lib/active-db';
import { currentRouteName } from '../../lib/api';
import { applyLocale } from '../../lib/i18n';
import { membershipsQuery, type Membership } from '../../lib/memberships';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { accountInPath, decideStartup, setMultipleAccounts } from '../../lib/startup';

export function useStartup(): void {
  const session = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const known = useRef<string | null>(null);

  useEffect(() => {
    if (session?.locale) void applyLocale(session.locale);
  }, [session?.locale]);

  useEffect(() => {
    const userId = session?.userId ?? null;
    if (!userId) {
      known.current = null;
      return;
    }
    if (known.current === userId) return;
    known.current = userId;
    if (session?.confirmationExpired) {
      // Past the confirmation deadline the server answers nothing else (SPEC §9).
      const d = decideStartup({ activeDb: null, routeName: currentRouteName(), memberships: [], confirmationExpired: true });
      if (d.kind === 'confirm') navigate(paths.confirmNew(), { replace: true });
      return;
    }
    let cancelled = false;
    void qc
      .fetchQuery(membershipsQuery(userId))
      .catch((): Membership[] => [])
      .then((memberships) => {
        if (cancelled) return;
        const decision = decideStartup({
          activeDb: getActiveDb(),
          routeDb: accountInPath(window.location.pathname),
          routeName: currentRouteName(),
          memberships,
        });
        if (decision.kind === 'dashboard') {
          setMultipleAccounts(false);
          navigate(paths.dashboard(decision.accountId), { replace: true });
        } else if (decision.kind === 'home') {
          setMultipleAccounts(true);
          if (window.location.pathname !== '/') navigate(paths.home(), { replace: true });
        }
      });
    return () => {
      cancelled = true;
    };
  }, [session?.userId, session?.confirmationExpired, qc, navigate]);
}
