// checkout (/checkout, signed in, no Group needed; SPEC §2): pick the Group
// to bill when there are several, then compare the plans and go to a
// plan's checkout for that Group.

import { Placeholder } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { Page } from '../../../components/Page';
import { switchable, useMemberships } from '../../../lib/accounts';
import { getActiveDb, setActiveDb } from '../../../lib/active-db';
import { limitsQuery } from '../../../lib/limits';
import { accountOf } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { billingQuery } from '../api/billing';
import { chooserGroup, PlanChooser } from '../components/PlanChooser';
import '../components/billing.css';

export function Component() {
  const { t } = useTranslation();
  const memberships = useMemberships();
  const mine = switchable(memberships.data ?? [], null);
  const [picked, setPicked] = useState<string | null>(() => getActiveDb());
  // A lone Group needs no picking.
  const db = picked && mine.some((m) => accountOf(m) === picked) ? picked : mine.length === 1 ? accountOf(mine[0]!) : null;
  const billing = useQuery({ ...billingQuery(db ?? ''), enabled: !!db });
  const limits = useQuery({ ...limitsQuery(db ?? ''), enabled: !!db });
  const pick = (next: string) => {
    setActiveDb(next);
    setPicked(next);
  };
  return (
    <Page title={t('billing.chooser.pageTitle')}>
      {memberships.isPending ? (
        <Placeholder height="6rem" />
      ) : mine.length === 0 ? (
        <EmptyStateNext icon="groups" title={t('billing.chooser.noGroups')} message={t('billing.chooser.noGroupsHelp')} testId="checkout-no-groups" next={{ to: paths.accountNew(), label: t('home.selectGroup.create') }} />
      ) : (
        <PlanChooser
          onPick={pick}
          group={db && billing.data ? chooserGroup(db, billing.data, limits.data?.records ?? null) : null}
        />
      )}
    </Page>
  );
}
