// customers#show: the customer's details, phones and addresses edited in
// place, their equipment and tickets (with shortcuts to add either for
// them), comments and history.

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
import { DetailList, Panel, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { RecordFiles } from '../../../components/records/RecordFiles';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { customerQuery, equipmentOfQuery } from '../api/customers';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { ItemsEditor } from '../components/ItemsEditor';
import { RelatedList } from '../components/RelatedList';
import { RelatedTickets } from '../components/RelatedTickets';

const SHOWN = ['name', 'short_name', 'email', 'site', 'company_name', 'job_title', 'cpf', 'cnpj', 'document', 'state_registration', 'municipal_registration'];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(customerQuery(db, id));
  const equipment = useQuery(equipmentOfQuery(db, id));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['records', db] });
      navigate(paths.index(db, 'customers'));
    },
  });
  const c = q.data;
  const title = c?.name ?? t('nav.customers');
  const rows: DetailRow[] = c
    ? [...SHOWN.map((n) => ({ key: n, label: `fields.${n}`, value: typeof c[n] === 'string' ? (c[n] as string) : '' })), { key: 'notes', label: 'fields.notes', value: c.notes ? <MultilineText text={c.notes} /> : '' }]
    : [];
  if (q.isError && asApiError(q.error).status === 404) {
    return (
      <Page title={t('nav.customers')} breadcrumbs={<DeskCrumbs db={db} set="customers" />}>
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      </Page>
    );
  }
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="customers" current={c ? title : undefined} />}
      actions={
        c ? (
          <>
            <ButtonLink to={`${paths.create(db, 'tickets')}?customer=${encodeURIComponent(id)}`} size="small" variation="primary" data-testid="new-ticket-for">
              <AppIcon name="plus" /> {t('tickets.new')}
            </ButtonLink>
            <ButtonLink to={paths.edit(db, 'customers', id)} size="small" data-testid="edit-record">
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
            {c ? (
              <>
                <Panel title={t('tickets.phones')} icon="info" testId="phones-panel">
                  <ItemsEditor db={db} customer={c} list="phones" fields={['number', 'description']} />
                </Panel>
                <Panel title={t('tickets.addresses')} icon="info" testId="addresses-panel">
                  <ItemsEditor db={db} customer={c} list="addresses" fields={['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'zip_code', 'description']} />
                </Panel>
                <Panel title={t('nav.equipment')} icon="info" testId="customer-equipment">
                  <RelatedList
                    db={db}
                    set="equipment"
                    loading={equipment.isPending}
                    rows={(equipment.data ?? []).map((e) => ({ id: e._id, label: e.identifier ?? '', detail: e.maker }))}
                    empty={t('tickets.noEquipment')}
                    addTo={`${paths.create(db, 'equipment')}?customer=${encodeURIComponent(id)}`}
                    addLabel={t('tickets.newEquipment')}
                  />
                </Panel>
                <Panel title={t('records.files.title')} icon="info" testId="files-panel">
                  <RecordFiles db={db} recordId={id} />
                </Panel>
                <RelatedTickets db={db} field="customer_id" id={id} testId="customer-tickets" />
              </>
            ) : null}
          </Flex>
        }
        comments={c ? <CommentsPanel db={db} itemId={id} itemType="Customer" /> : null}
        history={c ? <HistoryList db={db} itemId={id} /> : null}
      />
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
