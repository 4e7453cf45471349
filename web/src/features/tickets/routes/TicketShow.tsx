// tickets#show: every field, the customer and equipment cards linking to
// their records (with a WhatsApp link when the customer has a mobile), the
// checklist with its progress, the status moves the matrix allows, the wiki's
// handbooks for its category, and the comments and history panels. "e" edits.

import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { RecordActions } from '../../../components/records/RecordActions';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { HistoryList } from '../../../components/records/HistoryList';
import { MultilineText } from '../../../components/records/MultilineText';
import { DetailList, Panel, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { RecordFiles } from '../../../components/records/RecordFiles';
import { AppLink } from '../../../components/RouterLink';
import { deleteDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useGroupPhones } from '../../../lib/phones';
import { categoriesQuery, equipmentQuery, useCustomer } from '../api/customers';
import { moveTicket, ticketQuery } from '../api/tickets';
import { TRANSITIONS, type Status, type Ticket } from '../api/types';
import { CategoryChip } from '../components/CategoryChip';
import { ChecklistPanel } from '../components/ChecklistPanel';
import { TicketDocuments } from '../components/TicketDocuments';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { HandbooksPanel } from '../components/HandbooksPanel';
import { usePeople } from '../components/People';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';

function CustomerCard({ db, id, ticket }: { db: string; id: string; ticket: Ticket }) {
  const { t } = useTranslation();
  const q = useCustomer(db, id);
  const phone = useGroupPhones(db);
  const c = q.data;
  if (!c) return null;
  const phones = c.phones ?? [];
  const mobile = phones.find((p) => p.main) ?? phones[0];
  // The message is in the Group's language: the customer reads it, not the screen's user.
  const wa = mobile ? phone.whatsapp(mobile.number, phone.tCustomer('tickets.whatsappText', { name: c.name, number: ticket.number, title: ticket.title })) : null;
  return (
    <Card variation="outlined" data-testid="customer-card">
      <Heading level={6}>
        <AppIcon name="customer" /> <AppLink to={paths.show(db, 'customers', c._id)}>{c.name}</AppLink>
      </Heading>
      {c.email ? <Text fontSize="small">{c.email}</Text> : null}
      {phones.map((p, i) => (
        <Text key={i} fontSize="small" data-testid="customer-phone">
          {phone.format(p.number)} {p.description ? <span className="muted">· {p.description}</span> : null}
        </Text>
      ))}
      {wa ? (
        <a href={wa} target="_blank" rel="noopener noreferrer" className="whatsapp-link" data-testid="whatsapp-link">
          <AppIcon name="external" /> {t('tickets.whatsapp')}
        </a>
      ) : null}
    </Card>
  );
}

function EquipmentCard({ db, id }: { db: string; id: string }) {
  const q = useQuery(equipmentQuery(db, id));
  const e = q.data;
  if (!e) return null;
  return (
    <Card variation="outlined" data-testid="equipment-card">
      <Heading level={6}>
        <AppIcon name="equipment" /> <AppLink to={paths.show(db, 'equipment', e._id)}>{e.identifier}</AppLink>
      </Heading>
      {e.maker ? <Text fontSize="small">{e.maker}</Text> : null}
      {e.description ? <MultilineText text={e.description} clampLines={3} /> : null}
    </Card>
  );
}

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(ticketQuery(db, id));
  const people = usePeople(db);
  const categories = useQuery({ ...categoriesQuery(db), enabled: !!q.data?.category_id });
  const [confirming, setConfirming] = useState(false);
  const move = useMutation({
    mutationFn: (status: Status) => moveTicket(db, q.data as Ticket, status),
    onSettled: (res) => {
      void refetchOwnWrite(qc, ownWrite(db, id, 'Ticket', false, res?.rev), [['tickets', db], ['history', db, id]], res?.doc);
    },
  });
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      navigate(paths.index(db, 'tickets'));
    },
  });
  useShortcuts({ e: () => navigate(paths.edit(db, 'tickets', id)) });

  const tk = q.data;
  const categoryName = (tk?.category_id && categories.data?.find((c) => c._id === tk.category_id)?.name) || '';
  const title = tk ? `#${tk.number} ${tk.title ?? ''}` : t('nav.tickets');
  const rows: DetailRow[] = tk
    ? [
        { key: 'content', label: 'tickets.problem', value: <MultilineText text={tk.content} /> },
        { key: 'status', label: 'fields.status', value: <EnumBadge name="status" value={tk.status} /> },
        { key: 'priority', label: 'fields.priority', value: <EnumBadge name="priority" value={tk.priority} /> },
        { key: 'ticket_kind', label: 'fields.ticket_kind', value: <EnumBadge name="ticket_kind" value={tk.ticket_kind} /> },
        { key: 'category_id', label: 'fields.category_id', value: <CategoryChip db={db} id={tk.category_id} /> },
        { key: 'technical_id', label: 'fields.technical_id', value: people.label(tk.technical_id) },
        { key: 'reviewer_id', label: 'fields.reviewer_id', value: people.label(tk.reviewer_id) },
        { key: 'estimation', label: 'fields.estimation', value: formatDate(tk.estimation, i18n.language) },
        { key: 'equipment_observation', label: 'fields.equipment_observation', value: tk.equipment_observation ? <MultilineText text={tk.equipment_observation} /> : '' },
        { key: 'status_at', label: 'fields.status_at', value: formatDateTime(tk.status_at, i18n.language) },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(tk.created_at, i18n.language) },
        { key: 'updated_at', label: 'fields.updated_at', value: formatDateTime(tk.updated_at, i18n.language) },
      ]
    : [];
  const notFound = q.isError && asApiError(q.error).status === 404;
  const moves = tk ? (TRANSITIONS[tk.status ?? 'open'] ?? []) : [];

  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="tickets" current={tk ? title : undefined} />}
      actions={
        tk ? (
          <RecordActions editTo={paths.edit(db, 'tickets', id)} editShortcut onDelete={() => setConfirming(true)} />
        ) : null
      }
    >
      {notFound ? (
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      ) : (
        <Flex direction="column" gap="medium">
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={move.error ? asApiError(move.error) : null} onDismiss={() => move.reset()} />
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          {tk ? (
            <Flex gap="small" wrap="wrap" alignItems="center" role="group" aria-label={t('tickets.moveTo')} data-testid="status-actions">
              <Text fontSize="small" variation="secondary">
                {t('tickets.moveTo')}
              </Text>
              {moves.map((s) => (
                <Button key={s} size="small" onClick={() => move.mutate(s)} isDisabled={move.isPending} data-testid={`move-${s}`}>
                  {t(`tickets.action.${s}`)}
                </Button>
              ))}
            </Flex>
          ) : null}
          <RecordShow
            details={
              <Flex direction="column" gap="medium">
                <DetailList rows={rows} loading={q.isPending} />
                {/* The panels that need only the ticket's id read with it, in its batch (lib/batch.ts). */}
                <Panel title={t('docs.documents')} icon="info" testId="documents-panel">
                  <TicketDocuments db={db} id={id} ticket={tk} />
                </Panel>
                <Panel title={t('tickets.checklist')} icon="info" testId="checklist-panel">
                  <ChecklistPanel db={db} ticketId={id} />
                </Panel>
                <Panel title={t('records.files.title')} icon="info" testId="files-panel">
                  <RecordFiles db={db} recordId={id} />
                </Panel>
                {tk && categoryName ? <HandbooksPanel db={db} category={categoryName} /> : null}
                {tk && (tk.customer_id || tk.equipment_id) ? (
                  <Flex gap="medium" wrap="wrap" className="ticket-cards">
                    {tk.customer_id ? <CustomerCard db={db} id={tk.customer_id} ticket={tk} /> : null}
                    {tk.equipment_id ? <EquipmentCard db={db} id={tk.equipment_id} /> : null}
                  </Flex>
                ) : null}
              </Flex>
            }
            comments={<CommentsPanel db={db} itemId={id} itemType="Ticket" />}
            history={<HistoryList db={db} itemId={id} />}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
