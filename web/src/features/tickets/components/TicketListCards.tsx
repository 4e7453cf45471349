// The ticket list on a phone: one card per ticket — its number, the title in
// at most two lines, the customer, the status and the technician — each a
// link to the ticket, instead of a seven-column table.

import { Placeholder } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { labelOf, recordLabelQuery } from '../../../components/records/RecordPicker';
import { paths } from '../../../lib/paths';
import type { Ticket } from '../api/types';
import type { People } from './People';

function CustomerName({ db, id }: { db: string; id: string }) {
  const q = useQuery(recordLabelQuery(db, id, 'name'));
  return <>{q.data ? labelOf(q.data, 'name') : '…'}</>;
}

export function TicketListCards({
  db,
  rows,
  loading,
  people,
  empty,
  label,
}: {
  db: string;
  rows: Ticket[];
  loading: boolean;
  people: People;
  empty: ReactNode;
  label: string;
}) {
  const { t } = useTranslation();
  if (loading && rows.length === 0) return <Placeholder size="large" />;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <ul className="ticket-list-cards plain-list" aria-label={label} data-testid="ticket-cards">
      {rows.map((r) => {
        const person = people.label(r.technical_id);
        return (
          <li key={r._id}>
            <Link to={paths.show(db, 'tickets', r._id)} className="ticket-list-card" data-testid={`ticket-card-${r.number}`}>
              <span className="ticket-list-card__top">
                <span className="ticket-list-card__number">#{r.number}</span>
                <EnumBadge name="status" value={r.status} />
              </span>
              <span className="ticket-list-card__title">{r.title || t('records.untitled')}</span>
              <span className="ticket-list-card__meta">
                {r.customer_id ? (
                  <span className="ticket-list-card__customer">
                    <AppIcon name="customer" /> <span className="visually-hidden">{t('fields.customer_id')}: </span><CustomerName db={db} id={r.customer_id} />
                  </span>
                ) : null}
                {person ? (
                  <span className="ticket-list-card__person">
                    <AppIcon name="maintenance" /> <span className="visually-hidden">{t('fields.technical_id')}: </span>{person}
                  </span>
                ) : null}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
