// The usage page's figures: per klass and per day, by size or by record
// count, from the daily snapshots (GET /api/{db}/_usage).

import type { UsageDay } from './api/usage';

export type Measure = 'bytes' | 'records';

export interface UsageSeries {
  dates: string[];
  /** Klasses, the largest (on the last day) first. */
  klasses: string[];
  /** values[klass][i] is that klass's figure on dates[i]. */
  values: Record<string, number[]>;
  totals: number[];
}

export function usageSeries(days: UsageDay[], measure: Measure): UsageSeries {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const names = new Set<string>();
  for (const d of sorted) for (const k of Object.keys(d.klasses ?? {})) names.add(k);
  const values: Record<string, number[]> = {};
  for (const k of names) values[k] = sorted.map((d) => Math.max(0, Number(d.klasses?.[k]?.[measure] ?? 0)) || 0);
  const last = sorted.length - 1;
  const klasses = [...names].sort((a, b) => (values[b]![last] ?? 0) - (values[a]![last] ?? 0) || a.localeCompare(b));
  const totals = sorted.map((_, i) => klasses.reduce((n, k) => n + values[k]![i]!, 0));
  return { dates: sorted.map((d) => d.date), klasses, values, totals };
}

/** A stable colour per klass (by position), readable on light and dark. */
export const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

export function colourOf(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}
