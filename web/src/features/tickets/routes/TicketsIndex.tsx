// tickets#index: search by number, title or customer; filters (status,
// priority, category, customer, technician, mine) and the advanced search
// (per page, order, direction) in the URL; numbered pages; chips for status
// and priority; "n" opens a new ticket, "b" the board. On a phone the table
// gives way to cards (number, title in at most two lines, customer, status,
// technician) and the filters wait in a sheet.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordLink } from '../../../components/records/RecordPicker';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { formatDate } from '../../../lib/format';
import { useNarrowScreen } from '../../../lib/narrow';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { ticketsQuery } from '../api/tickets';
import type { Ticket } from '../api/types';
import { CategoryChip } from '../components/CategoryChip';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { usePeople } from '../components/People';
import { TicketFilterBar, useTicketFilters } from '../components/TicketFilters';
import { TicketListCards } from '../components/TicketListCards';
import { useShortcuts } from '../../../components/records/useShortcuts';

const ORDER = ['number', 'created_at', 'updated_at', 'status_at', 'priority', 'title'];
const DEFAULTS = { orderBy: 'number', direction: 'desc' as const };

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const me = useSession()?.userId ?? '';
  const [params, update] = useIndexParams(DEFAULTS, ORDER);
  const [filters, setFilter, clearFilters] = useTicketFilters(me);
  const people = usePeople(db);
  const narrow = useNarrowScreen();
  const q = useQuery(ticketsQuery({ db, ...filters, q: params.q, orderBy: params.orderBy, direction: params.direction, page: params.page, perPage: params.perPage }));
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  useShortcuts({ n: () => navigate(paths.create(db, 'tickets')), b: () => navigate(paths.ticketBoard()) });

  const columns: Column<Ticket>[] = [
    { key: 'title', label: 'fields.title', render: (r) => <>#{r.number} {r.title || t('records.untitled')}</> },
    { key: 'status', label: 'fields.status', render: (r) => <EnumBadge name="status" value={r.status} /> },
    { key: 'priority', label: 'fields.priority', render: (r) => <EnumBadge name="priority" value={r.priority} /> },
    { key: 'customer_id', label: 'fields.customer_id', render: (r) => <RecordLink db={db} id={r.customer_id} /> },
    { key: 'technical_id', label: 'fields.technical_id', render: (r) => people.label(r.technical_id) },
    { key: 'category_id', label: 'fields.category_id', render: (r) => <CategoryChip db={db} id={r.category_id} /> },
    {
      key: 'checklist',
      label: 'fields.checklist',
      render: (r) => ((r.checklist?.total ?? 0) > 0 ? `${r.checklist?.done ?? 0}/${r.checklist?.total}` : ''),
    },
    { key: 'created_at', label: 'fields.created_at', render: (r) => formatDate(r.created_at, i18n.language) },
  ];
  const title = filters.mineOn ? t('tickets.myTickets') : t('nav.tickets');
  const filtered = !!params.q || Object.entries(filters).some(([k, v]) => k !== 'q' && !!v);

  const empty = q.isError ? null : (
    <EmptyStateNext
      icon="ticket"
      title={filtered ? t('records.noMatches') : t('tickets.emptyTitle')}
      message={filtered ? t('tickets.noMatchesMessage') : t('tickets.emptyMessage')}
      testId="records-empty"
      next={{ to: paths.create(db, 'tickets'), label: t('tickets.new') }}
    />
  );

  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="tickets" />}
      actions={
        <>
          <Button size="small" onClick={() => void refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          <ButtonLink to={paths.ticketBoard()} size="small" data-testid="open-board" aria-keyshortcuts="b">
            <AppIcon name="board" /> {t('nav.ticketBoard')}
          </ButtonLink>
          <ButtonLink to={paths.create(db, 'tickets')} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
            <AppIcon name="plus" /> {t('tickets.new')}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="small">
        <IndexSearch params={params} update={update} order={ORDER} searchable />
        <Text variation="tertiary" fontSize="small">
          {t('tickets.searchHint')}
        </Text>
        <TicketFilterBar db={db} filters={filters} onChange={setFilter} onClear={clearFilters} />
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void refetch()} /> : null}
        {narrow ? (
          <TicketListCards db={db} rows={q.data?.docs ?? []} loading={q.isPending} people={people} empty={empty} label={title} />
        ) : (
          <RecordTable<Ticket>
            columns={columns}
            rows={q.data?.docs ?? []}
            rowKey={(r) => r._id}
            rowLink={(r) => paths.show(db, 'tickets', r._id)}
            loading={q.isPending}
            caption={title}
            empty={empty}
          />
        )}
        <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
      </Flex>
    </Page>
  );
}
