// app / app.html: the signed-in entry point. It goes where SPEC §4's startup
// rule says: the active Group's dashboard, the only (bookmarked) Group, or
// home with the group-selection notice.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../../components/PageLoader';
import { getActiveDb } from '../../../lib/active-db';
import { membershipsQuery } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { decideStartup, setMultipleAccounts } from '../../../lib/startup';

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const q = useQuery({ ...membershipsQuery(session?.userId ?? ''), enabled: !!session });

  useEffect(() => {
    if (q.isPending && q.fetchStatus !== 'idle') return;
    const active = getActiveDb();
    if (active) {
      navigate(paths.dashboard(active), { replace: true });
      return;
    }
    const d = decideStartup({ activeDb: null, routeName: 'app', memberships: q.data ?? [] });
    if (d.kind === 'dashboard') {
      setMultipleAccounts(false);
      navigate(paths.dashboard(d.accountId), { replace: true });
    } else {
      setMultipleAccounts(true);
      navigate(paths.home(), { replace: true });
    }
  }, [q.isPending, q.fetchStatus, q.data, navigate]);

  return <PageLoader label={t('common.loading')} />;
}
