// equipment#show: the equipment's details, its customer, its tickets (and a
// shortcut to open one for it), comments and history.

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
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, Panel, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { RecordFiles } from '../../../components/records/RecordFiles';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { equipmentQuery } from '../api/customers';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { RelatedTickets } from '../components/RelatedTickets';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(equipmentQuery(db, id));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['records', db] });
      navigate(paths.index(db, 'equipment'));
    },
  });
  const e = q.data;
  const title = e?.identifier ?? t('nav.equipment');
  const rows: DetailRow[] = e
    ? [
        { key: 'identifier', label: 'fields.identifier', value: e.identifier },
        { key: 'maker', label: 'fields.maker', value: e.maker ?? '' },
        { key: 'customer_id', label: 'fields.customer_id', value: <RecordLink db={db} id={e.customer_id} /> },
        { key: 'location', label: 'fields.location', value: e.location ?? '' },
        { key: 'description', label: 'fields.description', value: e.description ? <MultilineText text={e.description} /> : '' },
      ]
    : [];
  if (q.isError && asApiError(q.error).status === 404) {
    return (
      <Page title={t('nav.equipment')} breadcrumbs={<DeskCrumbs db={db} set="equipment" />}>
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      </Page>
    );
  }
  const newTicket = `${paths.create(db, 'tickets')}?equipment=${encodeURIComponent(id)}${e?.customer_id ? `&customer=${encodeURIComponent(e.customer_id)}` : ''}`;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="equipment" current={e ? title : undefined} />}
      actions={
        e ? (
          <>
            <ButtonLink to={newTicket} size="small" variation="primary" data-testid="new-ticket-for">
              <AppIcon name="plus" /> {t('tickets.new')}
            </ButtonLink>
            <ButtonLink to={paths.edit(db, 'equipment', id)} size="small" data-testid="edit-record">
              <AppIcon name="edit" /> {t('records.edit')}
            </ButtonLink>
            <Button size="small" variation="destructive" onClick={() => setConfirming(true)}>
              <AppIcon name="trash" /> {t('records.delete')}
            </Button>
          </>
        ) : null
      }
    >
      {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
      <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
      <RecordShow
        details={
          <Flex direction="column" gap="medium">
            <DetailList rows={rows} loading={q.isPending} />
            {e ? (
              <Panel title={t('records.files.title')} icon="info" testId="files-panel">
                <RecordFiles db={db} recordId={id} />
              </Panel>
            ) : null}
            {e ? (
              <RelatedTickets db={db} field="equipment_id" id={id} testId="equipment-tickets" />
            ) : null}
          </Flex>
        }
        comments={e ? <CommentsPanel db={db} itemId={id} itemType="Equipment" /> : null}
        history={e ? <HistoryList db={db} itemId={id} /> : null}
      />
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
