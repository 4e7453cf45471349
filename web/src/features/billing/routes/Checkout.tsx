// checkout (/checkout, signed in, no Group needed; SPEC §2): pick the Group
// to bill when there are several, then compare the plans and go to a
// plan's checkout for that Group.

import { Placeholder } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { switchable, useMemberships } from '../../../lib/accounts';
import { getActiveDb, setActiveDb } from '../../../lib/active-db';
import { limitsQuery } from '../../../lib/limits';
import { accountOf } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { billingQuery } from '../api/billing';
import { PlanChooser } from '../components/PlanChooser';
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
        <EmptyState
          icon="groups"
          title={t('billing.chooser.noGroups')}
          message={t('billing.chooser.noGroupsHelp')}
          testId="checkout-no-groups"
          action={
            <ButtonLink to={paths.accountNew()} variation="primary">
              {t('home.selectGroup.create')}
            </ButtonLink>
          }
        />
      ) : (
        <PlanChooser
          onPick={pick}
          group={
            db && billing.data
              ? {
                  db,
                  plan: billing.data.plan,
                  livemode: billing.data.livemode,
                  isAdmin: billing.data.is_admin,
                  canCancel: billing.data.can_cancel,
                  records: limits.data?.records ?? null,
                  freeRecordLimit: billing.data.free_record_limit,
                  switchLockedUntil: billing.data.switch_locked_until,
                }
              : null
          }
        />
      )}
    </Page>
  );
}
