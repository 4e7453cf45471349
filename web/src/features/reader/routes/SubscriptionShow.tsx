// reader_subscriptions#show: the subscription, its labels, its feed's fetch
// state (last check, last error, errors in a row, next check), refresh now,
// its items, edit and delete, comments and history.

import { Badge, Button, Flex, Link } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { DetailList, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { labelsQuery } from '../api/labels';
import { useRefreshFeeds } from '../api/refresh';
import { deleteSubscription, subscriptionQuery, subscriptionStatusQuery } from '../api/subscriptions';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionStatus } from '../components/SubscriptionStatus';
import { RecordNotFound } from '../../../components/records/RecordNotFound';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(subscriptionQuery(db, id));
  const status = useQuery({ ...subscriptionStatusQuery(db, id), enabled: !!q.data });
  const labels = useQuery(labelsQuery(db));
  const refresh = useRefreshFeeds(db);
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteSubscription(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ['reader', db] });
      navigate(paths.index(db, 'reader_subscriptions'));
    },
  });
  const s = q.data;
  const names = Object.fromEntries((labels.data ?? []).map((l) => [l._id, l.name]));
  const title = s?.title || s?.url || t('nav.reader_subscriptions');
  const when = (v: string | null | undefined) => (v ? formatDateTime(v, i18n.language) : '');
  const st = status.data;
  const rows: DetailRow[] = s
    ? [
        { key: 'url', label: 'reader.feedUrl', value: <Link href={s.url} isExternal rel="noopener noreferrer">{s.url}</Link> },
        { key: 'website_url', label: 'fields.website_url', value: s.website_url ? <Link href={s.website_url} isExternal rel="noopener noreferrer">{s.website_url}</Link> : '' },
        {
          key: 'reader_label_ids',
          label: 'fields.reader_label_ids',
          value: (
            <Flex gap="xs" wrap="wrap">
              {(s.reader_label_ids ?? []).map((l) => (names[l] ? <Badge key={l}>{names[l]}</Badge> : null))}
            </Flex>
          ),
        },
        { key: 'fetch_status', label: 'fields.fetch_status', value: <SubscriptionStatus status={st?.fetch_status ?? s.fetch_status} error={st?.last_error || s.fetch_error} /> },
        { key: 'checked_at', label: 'reader.checkedAt', value: when(st?.checked_at) },
        { key: 'fetched_at', label: 'reader.fetchedAt', value: when(st?.fetched_at) },
        { key: 'next_at', label: 'reader.nextAt', value: when(st?.next_at) },
        { key: 'errors', label: 'reader.errorsInARow', value: st ? String(st.errors) : '' },
        { key: 'refresh_interval', label: 'fields.refresh_interval', value: t('reader.minutes', { count: s.refresh_interval ?? 60 }) },
        { key: 'customize_title', label: 'reader.customizeTitle', value: s.customize_title ? t('common.yes') : t('common.no') },
        { key: 'active', label: 'fields.active', value: s.active === false ? t('common.no') : t('common.yes') },
        { key: 'created_at', label: 'fields.created_at', value: when(s.created_at) },
      ]
    : [];
  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" current={s ? title : undefined} />}
      actions={
        s ? (
          <>
            <Button
              size="small"
              onClick={() => refresh.mutate(id, { onSettled: () => void status.refetch() })}
              isLoading={refresh.isPending}
              loadingText={t('reader.refreshing')}
              data-testid="refresh-subscription"
            >
              <AppIcon name="refresh" /> {t('reader.refresh')}
            </Button>
            <ButtonLink to={paths.edit(db, 'reader_subscriptions', id)} size="small" data-testid="edit-record">
              <AppIcon name="edit" /> {t('records.edit')}
            </ButtonLink>
            <Button size="small" variation="destructive" onClick={() => setConfirming(true)} data-testid="delete-record">
              <AppIcon name="trash" /> {t('records.delete')}
            </Button>
          </>
        ) : null
      }
    >
      {notFound ? (
        <RecordNotFound />
      ) : (
        <>
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={refresh.error ? asApiError(refresh.error) : null} onDismiss={() => refresh.reset()} />
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <RecordShow
            details={
              <Flex direction="column" gap="small">
                <DetailList rows={rows} loading={q.isPending} />
                {s && (s.reader_label_ids ?? [])[0] ? (
                  <AppLink to={`${paths.index(db, 'reader_items')}?read=all&label=${s.reader_label_ids![0]}`}>{t('reader.itemsOfLabel')}</AppLink>
                ) : null}
              </Flex>
            }
            comments={s ? <CommentsPanel db={db} itemId={id} itemType="ReaderSubscription" /> : null}
            history={s ? <HistoryList db={db} itemId={id} /> : null}
          />
        </>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
