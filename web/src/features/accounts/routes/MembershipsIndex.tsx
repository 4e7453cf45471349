// memberships#index: the Group's members and pending invitations, with
// advanced search and paging (the record kit).

import { Badge, Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { AppLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { formatDate } from '../../../lib/format';
import { isPendingMembership, type Membership } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { mailSuppressedQuery, membershipsListQuery } from '../api/memberships';
import { MailSuppressedMarker, MembershipCrumbs, NewMembershipButton } from '../components/MembershipParts';

const ORDER = ['created_at', 'email', 'status'] as const;

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const defaults = useMemo(() => ({ orderBy: 'created_at', direction: 'asc' as const }), []);
  const [params, update] = useIndexParams(defaults, ORDER);
  const q = useQuery(membershipsListQuery(db, { page: params.page, perPage: params.perPage, orderBy: params.orderBy, direction: params.direction }));
  // Addresses the app no longer mails (bounces, complaints): a marker on their rows.
  const suppressed = useQuery(mailSuppressedQuery(db));
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  const yes = (v: unknown) => (v === true ? t('common.yes') : t('common.no'));
  return (
    <Page
      title={t('nav.memberships')}
      breadcrumbs={<MembershipCrumbs db={db} />}
      actions={
        <>
          <Button size="small" onClick={() => void refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          <NewMembershipButton db={db} />
        </>
      }
    >
      <IndexSearch params={params} update={update} order={ORDER} />
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
      <RecordTable<Membership>
        columns={[
          {
            key: 'email',
            label: 'fields.email',
            render: (m) => (
              <>
                {m.email ?? ''} <MailSuppressedMarker suppression={suppressed.data?.[m._id]} />
              </>
            ),
          },
          {
            key: 'user',
            label: 'fields.user',
            render: (m) => {
              const u = m.user as { _id?: string; label?: string } | undefined;
              return u?._id ? <AppLink to={paths.show(db, 'users', u._id)}>{u.label || u._id}</AppLink> : '';
            },
          },
          {
            key: 'status',
            label: 'fields.status',
            render: (m) => (
              <Badge size="small" variation={isPendingMembership(m) ? 'warning' : 'success'}>
                {t(`accounts.memberships.status.${isPendingMembership(m) ? 'pending' : 'accepted'}`)}
              </Badge>
            ),
          },
          { key: 'editor', label: 'fields.editor', render: (m) => yes(m.editor) },
          { key: 'report_view', label: 'fields.report_view', render: (m) => yes(m.report_view) },
          { key: 'created_at', label: 'fields.created_at', render: (m) => formatDate(m.created_at, i18n.language) },
        ]}
        rows={q.data?.docs ?? []}
        rowKey={(m) => m._id}
        rowLink={(m) => paths.show(db, 'memberships', m._id)}
        loading={q.isPending}
        caption={t('nav.memberships')}
        empty={q.isError ? null : <EmptyState icon="members" title={t('records.emptyTitle')} message={t('accounts.memberships.emptyHelp')} testId="records-empty" />}
      />
      <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
    </Page>
  );
}
