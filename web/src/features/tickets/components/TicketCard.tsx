// A ticket on the board: number, title, customer, technician, priority, checklist
// progress and age. Cards are links (Enter opens) and draggable; the
// keyboard moves them with the arrow keys (the board handles that).

import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import type { Ticket } from '../api/types';
import { ProgressBar } from './ChecklistPanel';

// One formatter per language: making one per card was a tenth of the board's
// rendering time.
const relativeTimes = new Map<string, Intl.RelativeTimeFormat>();

/** ageText: how long ago, in the largest whole unit (minutes, hours, days). */
export function ageText(iso: string | undefined, now: number, locale: string): string {
  if (!iso) return '';
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  let rtf = relativeTimes.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
    relativeTimes.set(locale, rtf);
  }
  const min = Math.round(ms / 60_000);
  if (min < 60) return rtf.format(-min, 'minute');
  const h = Math.round(min / 60);
  if (h < 48) return rtf.format(-h, 'hour');
  return rtf.format(-Math.round(h / 24), 'day');
}

/**
 * TicketCard is memoised: the board redraws on every hover of a drag over a
 * new column and on every move, and only the cards whose props changed need
 * to. The handlers get the ticket, so the board passes the same ones to all.
 */
export const TicketCard = memo(function TicketCard({
  db,
  ticket,
  customer,
  person,
  now,
  busy,
  onKeyMove,
  onDragStart,
  onDragEnd,
}: {
  db: string;
  ticket: Ticket;
  customer?: string | undefined;
  /** The technician's name. */
  person?: string | undefined;
  now: number;
  busy?: boolean;
  onKeyMove: (ticket: Ticket, dir: -1 | 1) => void;
  onDragStart: (ticket: Ticket, e: React.DragEvent) => void;
  onDragEnd?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const cl = ticket.checklist;
  return (
    <article
      className={`ticket-card ticket-card--${ticket.priority ?? 'medium'}${busy ? ' ticket-card--busy' : ''}`}
      draggable
      onDragStart={(e) => onDragStart(ticket, e)}
      onDragEnd={onDragEnd}
      data-testid={`card-${ticket.number}`}
      data-status={ticket.status}
      aria-busy={busy}
    >
      <Link
        to={paths.show(db, 'tickets', ticket._id)}
        className="ticket-card__link"
        aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight"
        onKeyDown={(e) => {
          if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
            e.preventDefault();
            onKeyMove(ticket, e.key === 'ArrowLeft' ? -1 : 1);
          }
        }}
      >
        <span className="ticket-card__number">#{ticket.number}</span> {ticket.title || t('records.untitled')}
      </Link>
      {customer ? <div className="ticket-card__customer">{customer}</div> : null}
      {person ? (
        <div className="ticket-card__person" data-testid="card-person">
          <AppIcon name="maintenance" /> <span className="visually-hidden">{t('fields.technical_id')}: </span>{person}
        </div>
      ) : null}
      <div className="ticket-card__meta">
        <EnumBadge name="priority" value={ticket.priority} />
        <span className="ticket-card__age" title={ticket.created_at}>
          {ageText(ticket.created_at, now, i18n.language)}
        </span>
      </div>
      {cl && (cl.total ?? 0) > 0 ? (
        <div className="ticket-card__checklist" title={t('tickets.checklistProgress', { done: cl.done ?? 0, total: cl.total ?? 0 })}>
          <ProgressBar done={cl.done ?? 0} total={cl.total ?? 0} label={t('tickets.checklist')} />
          <span className="ticket-card__count">
            {cl.done ?? 0}/{cl.total}
          </span>
        </div>
      ) : null}
    </article>
  );
});
