// customers#show: the customer's details, phones and addresses edited in
// place, their equipment and tickets (with shortcuts to add either for
// them), comments and history.

import { Flex, Placeholder } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordFiles } from '../../../components/records/RecordFiles';
import { DetailList, detailRows, Panel, type ShownField } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { ButtonLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { customerQuery, equipmentOfQuery } from '../api/customers';
import type { Customer } from '../api/types';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { ItemsEditor } from '../components/ItemsEditor';
import { RelatedList } from '../components/RelatedList';
import { RelatedTickets } from '../components/RelatedTickets';

const SHOWN: ShownField<Customer>[] = [
  'name',
  'short_name',
  'email',
  'site',
  'company_name',
  'job_title',
  'cpf',
  'cnpj',
  'document',
  'state_registration',
  'municipal_registration',
  { name: 'notes', value: (c) => (c.notes ? <MultilineText text={c.notes} /> : '') },
];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(customerQuery(db, id));
  const equipment = useQuery(equipmentOfQuery(db, id));
  const c = q.data;
  const title = c?.name ?? t('nav.customers');
  return (
    <ShowFrame
      scope="tickets"
      itemType="Customer"
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="customers" current={c ? title : undefined} />}
      doc={c}
      error={q.error}
      editTo={paths.edit(db, 'customers', id)}
      afterDelete={paths.index(db, 'customers')}
      actions={
        <ButtonLink to={`${paths.create(db, 'tickets')}?customer=${encodeURIComponent(id)}`} size="small" variation="primary" data-testid="new-ticket-for">
          <AppIcon name="plus" /> {t('tickets.new')}
        </ButtonLink>
      }
      details={
        <Flex direction="column" gap="medium">
          <DetailList rows={detailRows(c, SHOWN)} loading={q.isPending} />
          {/* The phones and addresses edit the record itself and wait for it; the panels below need
              only its id and read with it, in its batch (lib/batch.ts). */}
          <Panel title={t('tickets.phones')} icon="info" testId="phones-panel">
            {c ? <ItemsEditor db={db} customer={c} list="phones" fields={['number', 'description']} /> : <Placeholder />}
          </Panel>
          <Panel title={t('tickets.addresses')} icon="info" testId="addresses-panel">
            {c ? (
              <ItemsEditor db={db} customer={c} list="addresses" fields={['street', 'number', 'complement', 'neighborhood', 'city', 'state', 'zip_code', 'description']} />
            ) : (
              <Placeholder />
            )}
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
        </Flex>
      }
    />
  );
}
