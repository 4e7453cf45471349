// reader_subscriptions#show: the subscription, its labels, its feed's fetch
// state (last check, last error, errors in a row, next check), refresh now,
// its items, edit and delete, comments and history.

import { Badge, Button, Flex, Link } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { DetailList, detailRows } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { AppLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { labelsQuery } from '../api/labels';
import { useRefreshFeeds } from '../api/refresh';
import { subscriptionQuery, subscriptionStatusQuery } from '../api/subscriptions';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionStatus } from '../components/SubscriptionStatus';

const external = (href: string | undefined) =>
  href ? (
    <Link href={href} isExternal rel="noopener noreferrer">
      {href}
    </Link>
  ) : (
    ''
  );

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(subscriptionQuery(db, id));
  const status = useQuery({ ...subscriptionStatusQuery(db, id), enabled: !!q.data });
  const labels = useQuery(labelsQuery(db));
  const refresh = useRefreshFeeds(db);
  const s = q.data;
  const names = Object.fromEntries((labels.data ?? []).map((l) => [l._id, l.name]));
  const title = s?.title || s?.url || t('nav.reader_subscriptions');
  const when = (v: string | null | undefined) => (v ? formatDateTime(v, i18n.language) : '');
  const st = status.data;
  const yesNo = (b: boolean) => (b ? t('common.yes') : t('common.no'));
  const rows = detailRows(s, [
    { name: 'url', label: 'reader.feedUrl', value: (x) => external(x.url) },
    { name: 'website_url', value: (x) => external(x.website_url ?? undefined) },
    {
      name: 'reader_label_ids',
      value: (x) => (
        <Flex gap="xs" wrap="wrap">
          {(x.reader_label_ids ?? []).map((l) => (names[l] ? <Badge key={l}>{names[l]}</Badge> : null))}
        </Flex>
      ),
    },
    { name: 'fetch_status', value: (x) => <SubscriptionStatus status={st?.fetch_status ?? x.fetch_status} error={st?.last_error || x.fetch_error} /> },
    { name: 'checked_at', label: 'reader.checkedAt', value: () => when(st?.checked_at) },
    { name: 'fetched_at', label: 'reader.fetchedAt', value: () => when(st?.fetched_at) },
    { name: 'next_at', label: 'reader.nextAt', value: () => when(st?.next_at) },
    { name: 'errors', label: 'reader.errorsInARow', value: () => (st ? String(st.errors) : '') },
    { name: 'refresh_interval', value: (x) => t('reader.minutes', { count: x.refresh_interval ?? 60 }) },
    { name: 'customize_title', label: 'reader.customizeTitle', value: (x) => yesNo(!!x.customize_title) },
    { name: 'active', value: (x) => yesNo(x.active !== false) },
    { name: 'created_at', value: (x) => when(x.created_at) },
  ]);
  return (
    <ShowFrame
      scope="reader"
      itemType="ReaderSubscription"
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" current={s ? title : undefined} />}
      doc={s}
      error={q.error}
      editTo={paths.edit(db, 'reader_subscriptions', id)}
      afterDelete={paths.index(db, 'reader_subscriptions')}
      actions={
        <Button size="small" onClick={() => refresh.mutate(id, { onSettled: () => void status.refetch() })} isLoading={refresh.isPending} loadingText={t('reader.refreshing')} data-testid="refresh-subscription">
          <AppIcon name="refresh" /> {t('reader.refresh')}
        </Button>
      }
      top={<ErrorAlert error={refresh.error ? asApiError(refresh.error) : null} onDismiss={() => refresh.reset()} />}
      details={
        <Flex direction="column" gap="small">
          <DetailList rows={rows} loading={q.isPending} />
          {s && (s.reader_label_ids ?? [])[0] ? <AppLink to={`${paths.index(db, 'reader_items')}?read=all&label=${s.reader_label_ids![0]}`}>{t('reader.itemsOfLabel')}</AppLink> : null}
        </Flex>
      }
    />
  );
}
