// reader_labels#index: the Group's labels with their unread counts.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { paths } from '../../../lib/paths';
import { labelsQuery, unreadQuery } from '../api/labels';
import type { ReaderLabel } from '../api/types';
import { ReaderCrumbs } from '../components/ReaderCrumbs';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const q = useQuery(labelsQuery(db));
  const unread = useQuery(unreadQuery(db));
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  const columns: Column<ReaderLabel>[] = [
    { key: 'name', label: 'fields.name', render: (l) => l.name },
    { key: 'kind', label: 'fields.kind', render: (l) => t(`reader.kinds.${l.kind ?? 'label'}`) },
    {
      key: 'unread',
      label: 'reader.unread',
      render: (l) => <AppLink to={`${paths.index(db, 'reader_items')}?label=${l._id}`}>{String(unread.data?.[l._id] ?? 0)}</AppLink>,
    },
  ];
  const title = t('nav.reader_labels');
  return (
    <Page
      title={title}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" />}
      actions={
        <ButtonLink to={paths.create(db, 'reader_labels')} size="small" variation="primary" data-testid="new-record">
          <AppIcon name="plus" /> {t('reader.newLabel')}
        </ButtonLink>
      }
    >
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
      <RecordTable<ReaderLabel>
        columns={columns}
        rows={q.data ?? []}
        rowKey={(l) => l._id}
        rowLink={(l) => paths.show(db, 'reader_labels', l._id)}
        loading={q.isPending}
        caption={title}
        empty={
          q.isError ? null : (
            <EmptyStateNext icon="label" title={t('reader.noLabels')} message={t('reader.noLabelsMessage')} testId="records-empty" next={{ to: paths.create(db, 'reader_labels'), label: t('reader.newLabel') }} />
          )
        }
      />
    </Page>
  );
}
