// The tickets of a customer, an equipment or a category, as a panel of
// their show screens.

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../components/records/RecordShow';
import { ticketsOfQuery } from '../api/tickets';
import { RelatedList } from './RelatedList';

export function RelatedTickets({ db, field, id, testId }: { db: string; field: 'customer_id' | 'equipment_id' | 'category_id'; id: string; testId: string }) {
  const { t } = useTranslation();
  const tickets = useQuery(ticketsOfQuery(db, field, id));
  return (
    <Panel title={t('nav.tickets')} icon="info" testId={testId}>
      <RelatedList
        db={db}
        set="tickets"
        loading={tickets.isPending}
        rows={(tickets.data ?? []).map((tk) => ({ id: tk._id, label: `#${tk.number} ${tk.title ?? ''}`, status: tk.status }))}
        empty={t('tickets.noTickets')}
      />
    </Panel>
  );
}
