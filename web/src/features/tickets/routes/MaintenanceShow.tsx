// maintenances#show: the maintenance with its warranty end, comments, history.

import { Button, Flex } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { docQuery, type Maintenance } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useShortcuts } from '../components/useShortcuts';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(docQuery<Maintenance>(db, id));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      navigate(paths.index(db, 'maintenances'));
    },
  });
  useShortcuts({ e: () => navigate(paths.edit(db, 'maintenances', id)) });
  const m = q.data;
  const title = m ? t('docs.maintenances.of', { date: formatDate(m.date, i18n.language) }) : t('nav.maintenances');
  const rows: DetailRow[] = m
    ? [
        { key: 'date', label: 'fields.date', value: formatDate(m.date, i18n.language) },
        { key: 'equipment_id', label: 'fields.equipment_id', value: <RecordLink db={db} id={m.equipment_id} labelField="identifier" /> },
        { key: 'category_id', label: 'fields.category_id', value: m.category_id ? <RecordLink db={db} id={m.category_id} /> : '' },
        { key: 'ticket_id', label: 'fields.ticket_id', value: m.ticket_id ? <RecordLink db={db} id={m.ticket_id} labelField="title" /> : '' },
        { key: 'next_maintenance', label: 'fields.next_maintenance', value: formatDate(m.next_maintenance, i18n.language) },
        { key: 'warranty', label: 'fields.warranty', value: m.warranty ? m.warranty === 1 ? t('docs.maintenances.daysOne', { count: 1 }) : t('docs.maintenances.days', { count: m.warranty }) : '' },
        { key: 'warranty_until', label: 'fields.warranty_until', value: <span data-testid="warranty-until">{formatDate(m.warranty_until, i18n.language)}</span> },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(m.created_at, i18n.language) },
      ]
    : [];
  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="maintenances" current={m ? title : undefined} />}
      actions={
        m ? (
          <>
            <ButtonLink to={paths.edit(db, 'maintenances', id)} size="small" data-testid="edit-record" aria-keyshortcuts="e">
              <AppIcon name="edit" /> {t('records.edit')}
            </ButtonLink>
            <Button size="small" variation="destructive" onClick={() => setConfirming(true)}>
              <AppIcon name="trash" /> {t('records.delete')}
            </Button>
          </>
        ) : null
      }
    >
      {notFound ? (
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      ) : (
        <Flex direction="column" gap="medium">
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <RecordShow
            details={<DetailList rows={rows} loading={q.isPending} />}
            comments={m ? <CommentsPanel db={db} itemId={id} itemType="Maintenance" /> : null}
            history={m ? <HistoryList db={db} itemId={id} /> : null}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
