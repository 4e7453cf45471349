// tickets#board (/ticket-board): one column per status with its count (the
// server's exact tally); every open ticket and the latest closed ones. A
// card moves by drag and drop, or from the keyboard with Alt+←/→ on it; the
// move shows at once and rolls back if the server refuses it (a 409 says
// the ticket was changed by someone else). A move the status matrix refuses
// is never sent: while a card is dragged the columns it cannot go to are
// marked, and a drop there says why (where it can go) while the card stays
// where it was. Filters as on the index.

import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { PageLoader } from '../../../components/PageLoader';
import { ButtonLink } from '../../../components/RouterLink';
import { useActiveDb } from '../../../lib/active-db';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { boardQuery, moveTicket, type BoardData } from '../api/tickets';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';
import { STATUSES, TRANSITIONS, canMove, type Status, type Ticket } from '../api/types';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { usePeople } from '../components/People';
import { TicketCard } from '../components/TicketCard';
import { TicketFilterBar, useTicketFilters } from '../components/TicketFilters';

type Filters = ReturnType<typeof useTicketFilters>[0];

/** matches applies the index's filters to a loaded card. */
export function matches(tk: Ticket, f: Filters, customers: Record<string, string>): boolean {
  if (f.priority && tk.priority !== f.priority) return false;
  if (f.category && tk.category_id !== f.category) return false;
  if (f.customer && tk.customer_id !== f.customer) return false;
  if (f.technician && tk.technical_id !== f.technician) return false;
  if (f.mine && tk.technical_id !== f.mine && tk.reviewer_id !== f.mine) return false;
  const q = f.q?.trim().toLowerCase().replace(/^#/, '');
  if (q) {
    const hay = `${tk.number} ${tk.title ?? ''} ${customers[tk.customer_id ?? ''] ?? ''}`.toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

/** nextColumn: the nearest column in direction dir the ticket may move to. */
export function nextColumn(from: Status, dir: -1 | 1): Status | null {
  let i = STATUSES.indexOf(from) + dir;
  while (i >= 0 && i < STATUSES.length) {
    const s = STATUSES[i]!;
    if (canMove(from, s)) return s;
    i += dir;
  }
  return null;
}

/**
 * A column draws its first cards at once and the rest a batch per task
 * after that, as a transition: the first screenful is usable while the rest
 * of a long column (hundreds of open tickets) is still being drawn, and a
 * drag or a click is never kept waiting for it.
 */
const FIRST_CARDS = 20;
const MORE_CARDS = 40;

/** useStepped says how many of a column's `total` cards to draw now. */
export function useStepped(total: number): number {
  const [shown, setShown] = useState(FIRST_CARDS);
  useEffect(() => {
    if (shown >= total) return;
    const h = setTimeout(() => startTransition(() => setShown((n) => n + MORE_CARDS)), 0);
    return () => clearTimeout(h);
  }, [shown, total]);
  return Math.min(shown, total);
}

function ColumnCards({ cards, render }: { cards: Ticket[]; render: (tk: Ticket) => React.ReactNode }) {
  const shown = useStepped(cards.length);
  return <div className="board-column__cards">{cards.slice(0, shown).map(render)}</div>;
}

export function Component() {
  const db = useActiveDb() ?? '';
  if (!db) return <PageLoader />;
  return <Board db={db} />;
}

function Board({ db }: { db: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useSession()?.userId ?? '';
  const [filters, setFilter, clearFilters] = useTicketFilters(me);
  const people = usePeople(db);
  const key = boardQuery(db).queryKey;
  const q = useQuery(boardQuery(db));
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(h);
  }, []);
  const [over, setOver] = useState<Status | null>(null);
  const [dragging, setDragging] = useState<Ticket | null>(null);
  const [refused, setRefused] = useState<{ ticket: Ticket; to: Status } | null>(null);

  const move = useMutation({
    mutationFn: ({ ticket, to }: { ticket: Ticket; to: Status }) => moveTicket(db, ticket, to),
    onMutate: async ({ ticket, to }) => {
      await qc.cancelQueries({ queryKey: key });
      const prev = qc.getQueryData<BoardData>(key);
      qc.setQueryData<BoardData>(key, (old) => {
        if (!old) return old;
        const from = ticket.status ?? 'open';
        return {
          ...old,
          tickets: old.tickets.map((x) => (x._id === ticket._id ? { ...x, status: to } : x)),
          counts: { ...old.counts, [from]: Math.max(0, (old.counts[from] ?? 0) - 1), [to]: (old.counts[to] ?? 0) + 1 },
        };
      });
      return { prev };
    },
    // The new revision goes into the card at once, so a second move of the
    // same card right after the first does not read as a stale write.
    onSuccess: (res, { ticket }) => {
      qc.setQueryData<BoardData>(key, (old) => (old ? { ...old, tickets: old.tickets.map((x) => (x._id === ticket._id ? { ...x, _rev: res.rev } : x)) } : old));
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.prev) qc.setQueryData(key, ctx.prev);
    },
    onSettled: (res, _e, { ticket }) => {
      void refetchOwnWrite(qc, ownWrite(db, ticket._id, 'Ticket', false, res?.rev), undefined, res?.doc);
    },
  });

  const tryMove = (ticket: Ticket, to: Status | null) => {
    if (!to || to === ticket.status || move.isPending) return;
    if (!canMove(ticket.status, to)) {
      setRefused({ ticket, to });
      return;
    }
    setRefused(null);
    move.mutate({ ticket, to });
  };

  const data = q.data;
  const visible = useMemo(() => (data ? data.tickets.filter((tk) => matches(tk, filters, data.customers)) : []), [data, filters]);
  const byStatus = useMemo(() => {
    const m = new Map<Status, Ticket[]>(STATUSES.map((s) => [s, []]));
    for (const tk of visible) m.get((tk.status ?? 'open') as Status)?.push(tk);
    return m;
  }, [visible]);

  // The cards get the same handlers on every render (TicketCard is memoised);
  // they reach the latest tryMove through a ref.
  const latestTryMove = useRef(tryMove);
  useLayoutEffect(() => {
    latestTryMove.current = tryMove;
  });
  const onKeyMove = useCallback((tk: Ticket, dir: -1 | 1) => latestTryMove.current(tk, nextColumn((tk.status ?? 'open') as Status, dir)), []);
  const onDragStart = useCallback((tk: Ticket, e: React.DragEvent) => {
    e.dataTransfer.setData('text/x-ticket', tk._id);
    e.dataTransfer.effectAllowed = 'move';
    setDragging(tk);
    setRefused(null);
  }, []);
  const onDragEnd = useCallback(() => {
    setDragging(null);
    setOver(null);
  }, []);

  const busyId = move.isPending ? move.variables?.ticket._id : undefined;
  const error = move.error ? asApiError(move.error) : null;
  const refusedFrom = (refused?.ticket.status ?? 'open') as Status;
  const allowed = TRANSITIONS[refusedFrom] ?? [];

  return (
    <Page
      title={t('nav.ticketBoard')}
      breadcrumbs={<DeskCrumbs db={db} set="tickets" current={t('nav.ticketBoard')} />}
      actions={
        <>
          <Button size="small" onClick={() => void refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          <ButtonLink to={paths.create(db, 'tickets')} size="small" variation="primary" data-testid="new-record">
            <AppIcon name="plus" /> {t('tickets.new')}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="small">
        <TicketFilterBar db={db} filters={filters} onChange={setFilter} onClear={clearFilters} withStatus={false} />
        <Text variation="tertiary" fontSize="small">
          {t('tickets.boardHint')}
        </Text>
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
        <ErrorAlert error={error} onDismiss={() => move.reset()} />
        {refused ? (
          <Alert variation="warning" isDismissible onDismiss={() => setRefused(null)} role="alert" data-testid="board-refusal" className="board-refusal">
            {t('tickets.refusedMove', {
              number: refused.ticket.number,
              from: t(`enums.status.${refusedFrom}`),
              to: t(`enums.status.${refused.to}`),
            })}{' '}
            {allowed.length
              ? t('tickets.refusedMoveAllowed', { from: t(`enums.status.${refusedFrom}`), list: allowed.map((s) => t(`enums.status.${s}`)).join(', ') })
              : null}
          </Alert>
        ) : null}
        {data?.truncated ? <Text variation="warning">{t('tickets.boardTruncated')}</Text> : null}
        {q.isPending ? (
          <PageLoader />
        ) : data && data.tickets.length === 0 ? (
          <EmptyStateNext icon="board" title={t('tickets.emptyTitle')} message={t('tickets.emptyMessage')} testId="board-empty" next={{ to: paths.create(db, 'tickets'), label: t('tickets.new') }} />
        ) : (
          <div className="ticket-board" data-testid="ticket-board" data-ready={data ? 'true' : 'false'}>
            {STATUSES.map((s) => {
              const cards = byStatus.get(s) ?? [];
              const refuses = !!dragging && !canMove(dragging.status, s);
              return (
                <section
                  key={s}
                  className={`board-column${over === s ? ' board-column--over' : ''}${refuses ? ' board-column--refuses' : ''}`}
                  data-refuses={refuses ? 'true' : undefined}
                  aria-label={t(`enums.status.${s}`)}
                  data-testid={`column-${s}`}
                  onDragOver={(e) => {
                    e.preventDefault();
                    setOver(s);
                  }}
                  onDragLeave={() => setOver((o) => (o === s ? null : o))}
                  onDrop={(e) => {
                    e.preventDefault();
                    setOver(null);
                    setDragging(null);
                    const id = e.dataTransfer.getData('text/x-ticket');
                    const tk = data?.tickets.find((x) => x._id === id);
                    if (tk) tryMove(tk, s);
                  }}
                >
                  <header className="board-column__head">
                    <span>{t(`enums.status.${s}`)}</span>
                    <span className="board-column__count" data-testid={`count-${s}`}>
                      {data?.counts[s] ?? 0}
                    </span>
                  </header>
                  <ColumnCards
                    cards={cards}
                    render={(tk) => (
                      <TicketCard
                        key={tk._id}
                        db={db}
                        ticket={tk}
                        customer={data?.customers[tk.customer_id ?? '']}
                        person={people.label(tk.technical_id)}
                        now={now}
                        busy={busyId === tk._id}
                        onKeyMove={onKeyMove}
                        onDragStart={onDragStart}
                        onDragEnd={onDragEnd}
                      />
                    )}
                  />
                </section>
              );
            })}
          </div>
        )}
      </Flex>
    </Page>
  );
}
