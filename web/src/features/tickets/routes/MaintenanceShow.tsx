// maintenances#show: the maintenance with its warranty end, comments, history.

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { formatDate, formatDateTime } from '../../../lib/format';
import { docQuery, type Maintenance } from '../api/servicedocs';
import { DocShow } from '../components/DocShow';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(docQuery<Maintenance>(db, id));
  const m = q.data;
  const title = m ? t('docs.maintenances.of', { date: formatDate(m.date, i18n.language) }) : t('nav.maintenances');
  const rows: DetailRow[] = m
    ? [
        { key: 'date', label: 'fields.date', value: formatDate(m.date, i18n.language) },
        { key: 'equipment_id', label: 'fields.equipment_id', value: <RecordLink db={db} id={m.equipment_id} labelField="identifier" /> },
        { key: 'category_id', label: 'fields.category_id', value: m.category_id ? <RecordLink db={db} id={m.category_id} /> : '' },
        { key: 'ticket_id', label: 'fields.ticket_id', value: m.ticket_id ? <RecordLink db={db} id={m.ticket_id} labelField="title" /> : '' },
        { key: 'next_maintenance', label: 'fields.next_maintenance', value: formatDate(m.next_maintenance, i18n.language) },
        { key: 'warranty', label: 'fields.warranty', value: m.warranty ? (m.warranty === 1 ? t('docs.maintenances.daysOne', { count: 1 }) : t('docs.maintenances.days', { count: m.warranty })) : '' },
        { key: 'warranty_until', label: 'fields.warranty_until', value: <span data-testid="warranty-until">{formatDate(m.warranty_until, i18n.language)}</span> },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(m.created_at, i18n.language) },
      ]
    : [];
  return <DocShow set="maintenances" itemType="Maintenance" title={title} doc={m} error={q.error} details={<DetailList rows={rows} loading={q.isPending} />} />;
}
