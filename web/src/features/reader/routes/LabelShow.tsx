// reader_labels#show: the label, its subscriptions, its items (the feed list
// filtered by it), edit and delete (which takes it off its subscriptions),
// comments and history.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
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
import { DetailList, RecordShow } from '../../../components/records/RecordShow';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { deleteLabel, labelQuery, unreadQuery } from '../api/labels';
import { subscriptionsQuery } from '../api/subscriptions';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionStatus } from '../components/SubscriptionStatus';
import { RecordNotFound } from '../../../components/records/RecordNotFound';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(labelQuery(db, id));
  const subs = useQuery(subscriptionsQuery(db));
  const unread = useQuery(unreadQuery(db));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteLabel(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ['reader', db] });
      navigate(paths.index(db, 'reader_labels'));
    },
  });
  const l = q.data;
  const mine = (subs.data ?? []).filter((s) => (s.reader_label_ids ?? []).includes(id));
  const notFound = q.isError && asApiError(q.error).status === 404;
  const title = l?.name ?? t('nav.reader_labels');
  return (
    <Page
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" current={l?.name} />}
      actions={
        l ? (
          <>
            <ButtonLink to={`${paths.index(db, 'reader_items')}?read=all&label=${id}`} size="small" data-testid="label-items">
              <AppIcon name="reader" /> {t('reader.itemsOfLabel')}
            </ButtonLink>
            <ButtonLink to={paths.edit(db, 'reader_labels', id)} size="small" data-testid="edit-record">
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
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <RecordShow
            details={
              <Flex direction="column" gap="medium">
                <DetailList
                  loading={q.isPending}
                  rows={
                    l
                      ? [
                          { key: 'name', label: 'fields.name', value: l.name },
                          { key: 'kind', label: 'fields.kind', value: t(`reader.kinds.${l.kind ?? 'label'}`) },
                          { key: 'unread', label: 'reader.unread', value: String(unread.data?.[id] ?? 0) },
                        ]
                      : []
                  }
                />
                <section aria-label={t('nav.reader_subscriptions')}>
                  <Text fontWeight="bold">{t('nav.reader_subscriptions')}</Text>
                  {mine.length === 0 ? (
                    <Text variation="secondary">{t('reader.labelHasNoSubscriptions')}</Text>
                  ) : (
                    <ul data-testid="label-subscriptions">
                      {mine.map((s) => (
                        <li key={s._id}>
                          <AppLink to={paths.show(db, 'reader_subscriptions', s._id)}>{s.title || s.url}</AppLink>{' '}
                          <SubscriptionStatus status={s.fetch_status} error={s.fetch_error} />
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              </Flex>
            }
            comments={l ? <CommentsPanel db={db} itemId={id} itemType="ReaderLabel" /> : null}
            history={l ? <HistoryList db={db} itemId={id} /> : null}
          />
        </>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
