// The service documents of shared/servicedocs: estimates, contracts and
// maintenances (plain records), the maintenance plan, the PDF routes, the
// public links (re-issued by admins) and the public pages' calls, which
// are made without a session.

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, enc, parseError } from '../../../lib/api';
import { findPage, escapeRegex, find, getDoc, type Doc } from '../../../lib/couch';
import { liveDoc, liveKlasses } from '../../../lib/live-deps';

export const ESTIMATE_STATES = ['draft', 'sent', 'approved', 'refused'] as const;
export type EstimateState = (typeof ESTIMATE_STATES)[number];
export const decided = (s: string | undefined) => s === 'approved' || s === 'refused';

export interface EstimateItem {
  description: string;
  quantity: number | null;
  value: number | null;
}

export interface Estimate extends Doc {
  number?: number;
  description?: string;
  customer_id?: string | null;
  ticket_id?: string | null;
  observation?: string;
  valid_until?: string;
  state?: EstimateState;
  items?: EstimateItem[];
  total?: number;
  decided_at?: string;
  decided_by_name?: string;
  decision_note?: string;
  approval_token?: string;
}

export interface ContractItem {
  number?: number | null;
  content: string;
}

export interface Contract extends Doc {
  description?: string;
  customer_id?: string | null;
  payment_kind?: string;
  active?: boolean;
  items?: ContractItem[];
}

export interface Maintenance extends Doc {
  date?: string;
  next_maintenance?: string;
  category_id?: string | null;
  equipment_id?: string | null;
  warranty?: number | null;
  ticket_id?: string | null;
  warranty_until?: string;
}


/** lineTotal and itemsTotal mirror the server's total (integer cents). */
export const lineTotal = (it: Pick<EstimateItem, 'quantity' | 'value'>) =>
  Number.isFinite(it.quantity) && Number.isFinite(it.value) ? (it.quantity ?? 0) * (it.value ?? 0) : 0;
export const itemsTotal = (items: readonly Pick<EstimateItem, 'quantity' | 'value'>[]) => items.reduce((s, it) => s + lineTotal(it), 0);

// ---- lists -------------------------------------------------------------------

export interface DocListInput {
  db: string;
  klass: 'Estimate' | 'Contract' | 'Maintenance' | 'Equipment';
  q?: string | undefined;
  filter?: Record<string, unknown> | undefined;
  /** The fields a text search looks in. */
  searchIn: readonly string[];
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface DocPage<T> {
  docs: T[];
  hasMore: boolean;
}

/** docSelector: the klass, the filters, and the search as a number or a text in searchIn. */
export function docSelector(input: Pick<DocListInput, 'klass' | 'q' | 'filter' | 'searchIn'>): Record<string, unknown> {
  const sel: Record<string, unknown> = { klass: input.klass, ...(input.filter ?? {}) };
  const q = input.q?.trim().replace(/^#/, '') ?? '';
  if (/^\d+$/.test(q) && input.searchIn.includes('number')) sel.number = Number(q);
  else if (q) sel.$or = input.searchIn.filter((f) => f !== 'number').map((f) => ({ [f]: { $regex: `(?i)${escapeRegex(q)}` } }));
  return sel;
}

export const docListQuery = <T extends Doc>(input: DocListInput) =>
  queryOptions({
    queryKey: ['tickets', input.db, 'docs', input],
    queryFn: async (): Promise<DocPage<T>> => {
      return findPage<T>(input.db, { selector: docSelector(input), orderBy: input.orderBy, direction: input.direction, page: input.page, perPage: input.perPage });
    },
    placeholderData: keepPreviousData,
  });

export const docQuery = <T extends Doc>(db: string, id: string) =>
  queryOptions({ queryKey: ['tickets', db, 'doc', id], queryFn: () => getDoc<T>(db, id), retry: false, meta: liveDoc(id) });

/** The records of klass that name the ticket (estimates and maintenances of a ticket). */
export const ofTicketQuery = <T extends Doc>(db: string, klass: 'Estimate' | 'Maintenance', ticketId: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'of-ticket', klass, ticketId],
    queryFn: () => find<T>(db, { selector: { klass, ticket_id: ticketId }, limit: 50 }).then((r) => r.docs ?? []),
    meta: liveKlasses(klass),
  });

// ---- the maintenance plan ---------------------------------------------------

export interface PlanRow {
  maintenance: Maintenance;
  days_left: number;
  customer_id?: string;
}

export interface Plan {
  rows: PlanRow[];
  equipment: Record<string, string>;
  customers: Record<string, string>;
}

export const PLAN_DAYS = [30, 60, 90] as const;

export const planQuery = (db: string, days: number) =>
  queryOptions({
    queryKey: ['tickets', db, 'plan', days],
    queryFn: () => api.get<Plan>(`${enc(db)}/_maintenances/plan`, { days: String(days) }),
    placeholderData: keepPreviousData,
  });

// ---- PDFs and links -----------------------------------------------------------

const withLocale = (path: string, locale: string) => `/api/${path}?locale=${encodeURIComponent(locale)}`;

export type LabelSize = '62mm' | 'a4';

export const pdfUrls = {
  /** Equipment labels: one per item, on a 62 mm label printer's tape or an A4 sheet of 3 × 8. */
  labels: (db: string, equipmentIds: readonly string[], size: LabelSize, locale: string) =>
    `${withLocale(`${enc(db)}/_equipment/labels.pdf`, locale)}&size=${size}&ids=${equipmentIds.map(enc).join(',')}`,
  receipt: (db: string, ticketId: string, locale: string) => withLocale(`${enc(db)}/_tickets/${enc(ticketId)}/receipt.pdf`, locale),
  contractReceipt: (db: string, ticketId: string, locale: string) => withLocale(`${enc(db)}/_tickets/${enc(ticketId)}/contract-receipt.pdf`, locale),
  estimate: (db: string, estimateId: string, locale: string) => withLocale(`${enc(db)}/_estimates/${enc(estimateId)}/receipt.pdf`, locale),
};

export const publicUrls = {
  status: (token: string) => `${window.location.origin}/s/${token}`,
  estimate: (token: string) => `${window.location.origin}/e/${token}`,
};

export const reissueStatusLink = (db: string, ticketId: string) =>
  api.post<{ status_token: string }>(`${enc(db)}/_tickets/${enc(ticketId)}/status-link`, {});
export const reissueApprovalLink = (db: string, estimateId: string) =>
  api.post<{ approval_token: string }>(`${enc(db)}/_estimates/${enc(estimateId)}/approval-link`, {});

/** estimateShared: the approval link went to the customer; a draft becomes sent. */
export const estimateShared = (db: string, estimateId: string) =>
  api.post<{ state: EstimateState }>(`${enc(db)}/_estimates/${enc(estimateId)}/shared`, {});

// ---- the public pages ---------------------------------------------------------

export interface PublicShop {
  name: string;
  phones: Array<{ number?: string; description?: string }>;
  addresses: Array<Record<string, string | boolean | undefined>>;
  /** Where the shop's numbers are read (ISO 3166-1 alpha-2). */
  country?: string;
  /** What its estimates are in (ISO 4217): the Group's currency. */
  currency?: string;
}

export interface PublicStatus {
  locale: string;
  shop: PublicShop;
  ticket: {
    number: number;
    title: string;
    equipment: string;
    status: string;
    estimation?: string | null;
    created_at: string;
    history: Array<{ status: string; at: string }>;
  };
}

export interface PublicEstimate {
  locale: string;
  shop: PublicShop;
  estimate: Pick<Estimate, 'number' | 'description' | 'items' | 'total' | 'observation' | 'valid_until' | 'state' | 'decided_at' | 'decided_by_name' | 'decision_note'>;
}

/** publicCall calls a public route without the session (no cookie, no token). */
async function publicCall<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`/api/_public/${path}`, { ...init, credentials: 'omit', headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}) } });
  if (!res.ok) throw await parseError(res);
  return (await res.json()) as T;
}

export const publicStatusQuery = (token: string) =>
  queryOptions({ queryKey: ['public', 'status', token], queryFn: () => publicCall<PublicStatus>(`status/${enc(token)}`), retry: false });

export const publicEstimateQuery = (token: string) =>
  queryOptions({ queryKey: ['public', 'estimate', token], queryFn: () => publicCall<PublicEstimate>(`estimates/${enc(token)}`), retry: false });

export const decideEstimate = (token: string, body: { decision: 'approve' | 'refuse'; name: string; note: string }) =>
  publicCall<PublicEstimate>(`estimates/${enc(token)}`, { method: 'POST', body: JSON.stringify(body) });
