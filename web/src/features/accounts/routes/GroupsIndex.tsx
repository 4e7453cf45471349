// groups#index (SPEC §2): the sub-groups of this Group (corp), each opening
// its dashboard, and a link to create one.

import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { RecordTable } from '../../../components/records/RecordTable';
import { ButtonLink } from '../../../components/RouterLink';
import type { Account } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { subGroupsQuery } from '../api/sub-groups';
import { AdminCrumbs } from '../components/AdminCrumbs';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const session = useSession();
  const q = useQuery({ ...subGroupsQuery(session?.userId ?? '', db), enabled: !!session });
  return (
    <Page
      title={t('nav.groups')}
      breadcrumbs={<AdminCrumbs db={db} trail={[{ label: t('nav.groups') }]} />}
      actions={
        <>
          <Button size="small" onClick={() => void q.refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          <ButtonLink to={paths.create(db, 'groups')} size="small" variation="primary" data-testid="new-sub-group">
            <AppIcon name="plus" /> {t('records.new')}
          </ButtonLink>
        </>
      }
    >
      {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
      <RecordTable<Account>
        columns={[
          { key: 'name', label: 'fields.name', render: (a) => a.name ?? a._id },
          { key: 'plan', label: 'profile.groups.plan', render: (a) => t(`plans.${a.v7_plan ?? 'free'}`, { defaultValue: a.v7_plan ?? '' }) },
          { key: 'created_at', label: 'fields.created_at', render: (a) => formatDate(a.created_at, i18n.language) },
        ]}
        rows={q.data ?? []}
        rowKey={(a) => a._id}
        rowLink={(a) => paths.dashboard(a._id)}
        loading={q.isPending}
        caption={t('nav.groups')}
        empty={<EmptyState icon="groups" title={t('accounts.groups.empty')} message={t('accounts.groups.help')} testId="sub-groups-empty" />}
      />
    </Page>
  );
}
