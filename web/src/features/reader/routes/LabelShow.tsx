// reader_labels#show: the label, its subscriptions, its items (the feed list
// filtered by it), edit and delete (which takes it off its subscriptions),
// comments and history.

import { Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { DetailList, detailRows } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { labelQuery, unreadQuery } from '../api/labels';
import { subscriptionsQuery } from '../api/subscriptions';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionStatus } from '../components/SubscriptionStatus';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(labelQuery(db, id));
  const subs = useQuery(subscriptionsQuery(db));
  const unread = useQuery(unreadQuery(db));
  const l = q.data;
  const mine = (subs.data ?? []).filter((s) => (s.reader_label_ids ?? []).includes(id));
  const title = l?.name ?? t('nav.reader_labels');
  return (
    <ShowFrame
      scope="reader"
      itemType="ReaderLabel"
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" current={l?.name} />}
      doc={l}
      error={q.error}
      editTo={paths.edit(db, 'reader_labels', id)}
      afterDelete={paths.index(db, 'reader_labels')}
      actions={
        <ButtonLink to={`${paths.index(db, 'reader_items')}?read=all&label=${id}`} size="small" data-testid="label-items">
          <AppIcon name="reader" /> {t('reader.itemsOfLabel')}
        </ButtonLink>
      }
      details={
        <Flex direction="column" gap="medium">
          <DetailList
            loading={q.isPending}
            rows={detailRows(l, [
              'name',
              { name: 'kind', value: (x) => t(`reader.kinds.${x.kind ?? 'label'}`) },
              { name: 'unread', label: 'reader.unread', value: () => String(unread.data?.[id] ?? 0) },
            ])}
          />
          <section aria-label={t('nav.reader_subscriptions')}>
            <Text fontWeight="bold">{t('nav.reader_subscriptions')}</Text>
            {mine.length === 0 ? (
              <Text variation="secondary">{t('reader.labelHasNoSubscriptions')}</Text>
            ) : (
              <ul data-testid="label-subscriptions">
                {mine.map((s) => (
                  <li key={s._id}>
                    <AppLink to={paths.show(db, 'reader_subscriptions', s._id)}>{s.title || s.url}</AppLink> <SubscriptionStatus status={s.fetch_status} error={s.fetch_error} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </Flex>
      }
    />
  );
}
