// The money indexes' filters as they live in the URL (wallet, category,
// month, state, search) and as the Mango selector _find runs: the klass
// pinned (the server reads one klass through its index), then equalities,
// a posted_at range for the month, and the search as case-insensitive
// regexes over the description and the third party.

import { escapeRegex } from '../../lib/couch';
import type { KindDef, MoneyRecord } from './api/types';

export const STATES = ['all', 'confirmed', 'unconfirmed', 'imported'] as const;
export type StateFilter = (typeof STATES)[number];

export interface RecordFilters {
  q: string;
  wallet: string;
  category: string;
  /** YYYY-MM on posted_at. */
  month: string;
  state: StateFilter;
}

/** The URL parameters the filters use (besides the kit's page, per_page, order_by, direction). */
export const FILTER_KEYS = ['q', 'wallet', 'category', 'month', 'state'] as const;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function validMonth(v: string | null | undefined): v is string {
  return !!v && MONTH.test(v);
}

/** normalizeCategory mirrors the server's tags: trimmed, inner spaces as dashes. */
export function normalizeCategory(s: string): string {
  return s.trim().split(/\s+/).filter(Boolean).join('-');
}

/** splitCategories reads "food, eating out ,, fun" as ["food", "eating-out", "fun"] (no repeats). */
export function splitCategories(text: string | readonly string[] | null | undefined): string[] {
  const parts = typeof text === 'string' ? text.split(',') : [...(text ?? [])];
  const out: string[] = [];
  for (const p of parts) {
    const tag = normalizeCategory(String(p));
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** readFilters takes the filters from the URL; anything malformed is ignored. */
export function readFilters(sp: URLSearchParams): RecordFilters {
  const state = sp.get('state') ?? '';
  const month = sp.get('month') ?? '';
  return {
    q: (sp.get('q') ?? '').trim(),
    wallet: sp.get('wallet') ?? '',
    category: normalizeCategory(sp.get('category') ?? ''),
    month: validMonth(month) ? month : '',
    state: (STATES as readonly string[]).includes(state) ? (state as StateFilter) : 'all',
  };
}

/** monthRange: "2025-12" → ["2025-12-01", "2026-01-01"] (from inclusive, to exclusive). */
export function monthRange(month: string): [string, string] {
  const m = MONTH.exec(month);
  if (!m) throw new Error(`not a month: ${month}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
  return [`${month}-01`, `${next}-01`];
}

/** The state filter as equalities (the server writes both flags on every record). */
export function stateSelector(state: StateFilter): Record<string, unknown> {
  switch (state) {
    case 'confirmed':
      return { confirmed: true, imported: false };
    case 'unconfirmed':
      return { confirmed: false, imported: false };
    case 'imported':
      return { imported: true };
    default:
      return {};
  }
}

/** recordSelector builds the _find selector of a money index. */
export function recordSelector(kind: Pick<KindDef, 'klass' | 'twoWallets' | 'party'>, f: RecordFilters): Record<string, unknown> {
  const sel: Record<string, unknown> = { klass: kind.klass };
  const and: Record<string, unknown>[] = [];
  if (f.wallet) {
    if (kind.twoWallets) and.push({ $or: [{ source_wallet_id: f.wallet }, { destination_wallet_id: f.wallet }] });
    else sel.wallet_id = f.wallet;
  }
  if (f.category) sel.categories = { $all: [f.category] };
  if (f.month) {
    const [from, to] = monthRange(f.month);
    sel.posted_at = { $gte: from, $lt: to };
  }
  Object.assign(sel, stateSelector(f.state));
  if (f.q) {
    const re = { $regex: `(?i)${escapeRegex(f.q)}` };
    const fields = ['description', ...(kind.party ? [kind.party] : [])];
    and.push({ $or: fields.map((field) => ({ [field]: re })) });
  }
  if (and.length === 1) Object.assign(sel, and[0]);
  else if (and.length > 1) sel.$and = and;
  return sel;
}

export type RecordState = 'confirmed' | 'unconfirmed' | 'imported';

/** stateOf: imported until reviewed, then confirmed or not. */
export function stateOf(r: Pick<MoneyRecord, 'confirmed' | 'imported'>): RecordState {
  if (r.imported) return 'imported';
  return r.confirmed ? 'confirmed' : 'unconfirmed';
}

/** anyFilter: whether the list is narrowed (for the empty state's wording). */
export function anyFilter(f: RecordFilters): boolean {
  return !!(f.q || f.wallet || f.category || f.month || f.state !== 'all');
}
