// equipment#show: the equipment's details, its customer, its tickets (and a
// shortcut to open one for it), comments and history.

import { Flex } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordFiles } from '../../../components/records/RecordFiles';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, detailRows, Panel, type ShownField } from '../../../components/records/RecordShow';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { ButtonLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { equipmentQuery } from '../api/customers';
import type { Equipment } from '../api/types';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { RelatedTickets } from '../components/RelatedTickets';

const shown = (db: string): ShownField<Equipment>[] => [
  'identifier',
  'maker',
  { name: 'customer_id', value: (e) => <RecordLink db={db} id={e.customer_id} /> },
  'location',
  { name: 'description', value: (e) => (e.description ? <MultilineText text={e.description} /> : '') },
];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(equipmentQuery(db, id));
  const e = q.data;
  const title = e?.identifier ?? t('nav.equipment');
  const newTicket = `${paths.create(db, 'tickets')}?equipment=${encodeURIComponent(id)}${e?.customer_id ? `&customer=${encodeURIComponent(e.customer_id)}` : ''}`;
  return (
    <ShowFrame
      scope="tickets"
      itemType="Equipment"
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="equipment" current={e ? title : undefined} />}
      doc={e}
      error={q.error}
      editTo={paths.edit(db, 'equipment', id)}
      afterDelete={paths.index(db, 'equipment')}
      actions={
        <ButtonLink to={newTicket} size="small" variation="primary" data-testid="new-ticket-for">
          <AppIcon name="plus" /> {t('tickets.new')}
        </ButtonLink>
      }
      details={
        <Flex direction="column" gap="medium">
          <DetailList rows={detailRows(e, shown(db))} loading={q.isPending} />
          {/* By the record's id: read with it, in its batch (lib/batch.ts). */}
          <Panel title={t('records.files.title')} icon="info" testId="files-panel">
            <RecordFiles db={db} recordId={id} />
          </Panel>
          <RelatedTickets db={db} field="equipment_id" id={id} testId="equipment-tickets" />
        </Flex>
      }
    />
  );
}
