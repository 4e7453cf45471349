// reader_subscriptions#index: every subscription with its labels and last
// fetch status (and error), refresh, OPML import and export.

import { Badge, Button, Flex } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { paths } from '../../../lib/paths';
import { labelsQuery } from '../api/labels';
import { useRefreshFeeds } from '../api/refresh';
import { subscriptionsQuery } from '../api/subscriptions';
import type { ReaderSubscription } from '../api/types';
import { OpmlButtons } from '../components/OpmlButtons';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionStatus } from '../components/SubscriptionStatus';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const q = useQuery(subscriptionsQuery(db));
  const labels = useQuery(labelsQuery(db));
  const refresh = useRefreshFeeds(db);
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  const names = useMemo(() => Object.fromEntries((labels.data ?? []).map((l) => [l._id, l.name])), [labels.data]);

  const columns: Column<ReaderSubscription>[] = [
    { key: 'title', label: 'fields.title', render: (s) => s.title || s.url },
    {
      key: 'reader_label_ids',
      label: 'fields.reader_label_ids',
      render: (s) => (
        <Flex gap="xs" wrap="wrap">
          {(s.reader_label_ids ?? []).map((id) => (names[id] ? <Badge key={id} size="small">{names[id]}</Badge> : null))}
        </Flex>
      ),
    },
    { key: 'fetch_status', label: 'fields.fetch_status', render: (s) => <SubscriptionStatus status={s.fetch_status} error={s.fetch_error} /> },
    { key: 'active', label: 'fields.active', render: (s) => (s.active === false ? t('common.no') : t('common.yes')) },
  ];
  const title = t('nav.reader_subscriptions');
  return (
    <Page
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" />}
      actions={
        <>
          <Button size="small" onClick={() => refresh.mutate(undefined)} isLoading={refresh.isPending} loadingText={t('reader.refreshing')} data-testid="refresh-feeds">
            <AppIcon name="refresh" /> {t('reader.refresh')}
          </Button>
          <ButtonLink to={paths.create(db, 'reader_subscriptions')} size="small" variation="primary" data-testid="new-record">
            <AppIcon name="plus" /> {t('reader.subscribe')}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="small">
        <OpmlButtons db={db} />
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
        <ErrorAlert error={refresh.error ? asApiError(refresh.error) : null} onDismiss={() => refresh.reset()} />
        <RecordTable<ReaderSubscription>
          columns={columns}
          rows={q.data ?? []}
          rowKey={(s) => s._id}
          rowLink={(s) => paths.show(db, 'reader_subscriptions', s._id)}
          loading={q.isPending}
          caption={title}
          empty={
            q.isError ? null : (
              <EmptyStateNext
                icon="subscription"
                title={t('reader.noSubscriptions')}
                message={t('reader.noSubscriptionsMessage')}
                testId="records-empty"
                next={{ to: paths.create(db, 'reader_subscriptions'), label: t('reader.subscribe') }}
              />
            )
          }
        />
      </Flex>
    </Page>
  );
}
