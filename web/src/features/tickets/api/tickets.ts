// Reading and writing tickets: the index's _find with its filters and
// search, one ticket, its checklist (toggled through the server's update
// handler), saving, and the Group's members for the people pickers.

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { findPage, escapeRegex, find, getDoc, postDoc, putDoc, type WriteResult } from '../../../lib/couch';
import { liveDoc, liveKlasses } from '../../../lib/live-deps';
import type { Checklist, Customer, Ticket } from './types';

export interface TicketFilters {
  status?: string | undefined;
  priority?: string | undefined;
  category?: string | undefined;
  customer?: string | undefined;
  technician?: string | undefined;
  /** The signed-in user's id: tickets where they are the technician or the reviewer. */
  mine?: string | undefined;
  q?: string | undefined;
}

export interface TicketListInput extends TicketFilters {
  db: string;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/**
 * ticketSelector builds the _find selector: every filter is an equality; the
 * search is a ticket number when it is one, else the title or the name of a
 * customer (customerIds: the customers whose name matched).
 */
export function ticketSelector(f: TicketFilters, customerIds: string[] = []): Record<string, unknown> {
  const and: Record<string, unknown>[] = [];
  const sel: Record<string, unknown> = { klass: 'Ticket' };
  if (f.status) sel.status = f.status;
  if (f.priority) sel.priority = f.priority;
  if (f.category) sel.category_id = f.category;
  if (f.customer) sel.customer_id = f.customer;
  if (f.technician) sel.technical_id = f.technician;
  if (f.mine) and.push({ $or: [{ technical_id: f.mine }, { reviewer_id: f.mine }] });
  const q = f.q?.trim().replace(/^#/, '') ?? '';
  if (/^\d+$/.test(q)) {
    sel.number = Number(q);
  } else if (q) {
    const or: Record<string, unknown>[] = [{ title: { $regex: `(?i)${escapeRegex(q)}` } }];
    if (customerIds.length) or.push({ customer_id: { $in: customerIds } });
    and.push({ $or: or });
  }
  if (and.length) sel.$and = and;
  return sel;
}

/** The ids of the customers whose name matches q (at most 100). */
async function customersNamed(db: string, q: string): Promise<string[]> {
  const text = q.trim();
  if (!text || /^#?\d+$/.test(text)) return [];
  const res = await find<Customer>(db, {
    selector: { klass: 'Customer', name: { $regex: `(?i)${escapeRegex(text)}` } },
    fields: ['_id'],
    limit: 100,
  });
  return (res.docs ?? []).map((c) => c._id);
}

export interface TicketPage {
  docs: Ticket[];
  hasMore: boolean;
}

export async function listTickets(input: TicketListInput): Promise<TicketPage> {
  const ids = input.q ? await customersNamed(input.db, input.q) : [];
  return findPage<Ticket>(input.db, { selector: ticketSelector(input, ids), orderBy: input.orderBy, direction: input.direction, page: input.page, perPage: input.perPage });
}

export const ticketsQuery = (input: TicketListInput) =>
  queryOptions({
    queryKey: ['tickets', input.db, 'list', input],
    queryFn: () => listTickets(input),
    placeholderData: keepPreviousData,
    // A search also reads the customers named like it.
    meta: liveKlasses('Ticket', ...(input.q ? ['Customer'] : [])),
  });

/** Tickets of one customer or one equipment (their show screens). */
export const ticketsOfQuery = (db: string, field: 'customer_id' | 'equipment_id' | 'category_id', id: string) =>
  queryOptions({
    queryKey: ['tickets', db, field, id],
    queryFn: () =>
      find<Ticket>(db, { selector: { klass: 'Ticket', [field]: id }, sort: [{ created_at: 'desc' }], limit: 50 }).then((r) => r.docs ?? []),
    meta: liveKlasses('Ticket'),
  });

export const ticketQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['tickets', db, 'doc', id], queryFn: () => getDoc<Ticket>(db, id), retry: false, meta: liveDoc(id) });

export function saveTicket(db: string, doc: Partial<Ticket> & { checklist_replace?: boolean }): Promise<WriteResult> {
  const body = { ...doc, klass: 'Ticket' };
  return body._id ? putDoc(db, body as Ticket) : postDoc(db, body);
}

/** moveTicket changes a ticket's status, from the revision the screen holds (a 409 tells it changed). */
export function moveTicket(db: string, ticket: Ticket, status: string): Promise<WriteResult> {
  return putDoc(db, { ...ticket, status });
}

/** The checklist of a ticket has an id the server derives from the ticket's; it is found by its ticket. */
export const checklistQuery = (db: string, ticketId: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'checklist', ticketId],
    queryFn: () => find<Checklist>(db, { selector: { klass: 'TicketChecklist', ticket: ticketId }, limit: 1 }).then((r) => r.docs?.[0] ?? null),
    meta: liveKlasses('TicketChecklist'),
  });

export function toggleChecklistItem(db: string, checklistId: string, index: number, text: string, done: boolean) {
  return api.put<{ ok: boolean; progress?: { done: number; total: number } }>(
    `${enc(db)}/_design/checklist/_update/toggle/${enc(checklistId)}`,
    { index, text, done },
  );
}

/** A member of the Group, or a former one (left: tickets may still name them). */
export interface Member {
  user_id: string;
  name: string;
  email?: string;
  admin?: boolean;
  left?: boolean;
}

/**
 * The Group's people by their own names (GET /api/{db}/_members): its
 * members first, then those who left. Membership records carry the Group's
 * name, never the member's, so names come from the server.
 */
export const membersQuery = (db: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'members'],
    queryFn: () => api.get<{ people: Member[] }>(`${enc(db)}/_members`).then((r) => r.people ?? []),
    staleTime: 60_000,
    // Who is in the Group changes with its memberships (a name changes in the person's own db).
    meta: liveKlasses('Membership'),
  });

export interface BoardData {
  tickets: Ticket[];
  counts: Record<string, number>;
  customers: Record<string, string>;
  truncated: boolean;
}

export const boardQuery = (db: string, closed = 30) =>
  queryOptions({
    queryKey: ['tickets', db, 'board', closed],
    queryFn: () => api.get<BoardData>(`${enc(db)}/_tickets/board`, { closed }),
    // Its cards, their counts and their customers' names.
    meta: liveKlasses('Ticket', 'Customer'),
  });
