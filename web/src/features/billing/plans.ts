// The plan chooser's rules (SPEC §5, §9): which prices the table shows,
// the checkout's exactly-one lookup, the comparison table's 15 rows (the
// plan features of SPEC §9's plan table), and what the plan-change modals
// must refuse before calling the server.

import type { PlanPrice } from './api/prices';

export const PLAN_COLUMNS = ['free', 'pro', 'corp'] as const;
export type PlanColumn = (typeof PLAN_COLUMNS)[number];

/** SPEC §5: a table with fewer than 3 prices shows "We could not find any plan". */
export const MIN_PRICES = 3;

/** SPEC §5, §9: switching to free is refused above this many records. */
export const FREE_RECORD_LIMIT = 1000;

/**
 * pricesByPlan keeps, for each plan, the first active price of the Group's
 * mode (live or test; a price without livemode is a test price).
 */
export function pricesByPlan(prices: PlanPrice[], livemode: boolean): Partial<Record<string, PlanPrice>> {
  const out: Partial<Record<string, PlanPrice>> = {};
  for (const p of prices) {
    if (p.active === false || !p.group_plan) continue;
    if (!!p.livemode !== livemode) continue;
    if (!out[p.group_plan]) out[p.group_plan] = p;
  }
  return out;
}

/** enoughPrices: the chooser can be shown (at least 3 prices of the Group's mode). */
export function enoughPrices(prices: PlanPrice[], livemode: boolean): boolean {
  return prices.filter((p) => p.active !== false && !!p.livemode === livemode).length >= MIN_PRICES;
}

/** checkoutPrice: the lookup must find exactly one active price, else null (SPEC §5). */
export function checkoutPrice(found: PlanPrice[]): PlanPrice | null {
  const active = found.filter((p) => p.active !== false);
  return active.length === 1 ? active[0]! : null;
}

/** A cell: a yes/no mark, or a text key under billing.compare.rows.<row>.<plan>. */
export type Cell = 'yes' | 'no' | 'text' | 'price';

export interface ComparisonRow {
  key: string;
  cells: Record<PlanColumn, Cell>;
  /** The numbered note the row refers to (1-based), if any. */
  note?: number;
}

const all = (c: Cell): Record<PlanColumn, Cell> => ({ free: c, pro: c, corp: c });
const paidOnly: Record<PlanColumn, Cell> = { free: 'no', pro: 'yes', corp: 'yes' };
const corpOnly: Record<PlanColumn, Cell> = { free: 'no', pro: 'no', corp: 'yes' };

/** The 15 comparison rows (SPEC §2 "Plan chooser", §6, §9). */
export const COMPARISON_ROWS: ComparisonRow[] = [
  { key: 'price', cells: all('price'), note: 1 },
  { key: 'billing', cells: all('text'), note: 1 },
  { key: 'records', cells: all('text'), note: 2 },
  { key: 'groups', cells: all('text') },
  { key: 'subGroups', cells: corpOnly },
  { key: 'users', cells: all('text') },
  { key: 'groupPermissions', cells: corpOnly },
  { key: 'crossReports', cells: corpOnly },
  { key: 'drive', cells: all('text') },
  { key: 'fileVersions', cells: all('text') },
  { key: 'webdav', cells: all('yes') },
  { key: 'backups', cells: all('text'), note: 4 },
  { key: 'backupFiles', cells: paidOnly, note: 4 },
  { key: 'api', cells: all('yes') },
  { key: 'help', cells: all('text') },
];

/** The numbered notes under the table, in order (billing.compare.notes.<key>). */
export const NOTES = ['storage', 'records', 'switching', 'backups', 'server'] as const;

/** lockedUntil: the switch lock's end when it is still ahead, else null (SPEC §9: 24 hours). */
export function lockedUntil(until: string | null | undefined, now: Date = new Date()): Date | null {
  if (!until) return null;
  const d = new Date(until);
  return Number.isNaN(d.getTime()) || d.getTime() <= now.getTime() ? null : d;
}

/** tooManyForFree: switching to free is refused above the free plan's records (1,000 unless the server says otherwise). */
export function tooManyForFree(records: number | null | undefined, limit = FREE_RECORD_LIMIT): boolean {
  return typeof records === 'number' && records > limit;
}

/** isPaid: pro, corp and server pay; free, locked and unknown plans do not. */
export function isPaid(plan: string | null | undefined): boolean {
  return plan === 'pro' || plan === 'corp' || plan === 'server';
}
