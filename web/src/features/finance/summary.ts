// The finance dashboard's figures: confirmed, reviewed revenues and
// expenses of a period summed per currency (in the currency's ISO minor
// units, as the balances panel reads them) and per category.

import { toStandardUnits, minorDigits } from '../../lib/money';
import { counts } from './balance';
import type { MoneyRecord, Wallet } from './api/types';

export const RANGES = ['30d', '12m'] as const;
export type Range = (typeof RANGES)[number];

/** rangeStart: the first day of the period ending today — the last 30 days, or the last 12 calendar months. */
export function rangeStart(range: Range, today: string): string {
  const d = new Date(`${today}T00:00:00Z`);
  if (range === '30d') {
    d.setUTCDate(d.getUTCDate() - 29);
    return d.toISOString().slice(0, 10);
  }
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 11);
  return d.toISOString().slice(0, 10);
}

export interface CategoryRow {
  /** "" for records without a category. */
  category: string;
  income: number;
  expense: number;
}

export interface CurrencySummary {
  currency: string;
  /** The ISO minor digits the sums are in. */
  precision: number;
  income: number;
  expense: number;
  net: number;
  categories: CategoryRow[];
}

/**
 * summarize sums revenues and expenses per currency, and per category
 * within it (a record with two categories counts in both; one without any
 * counts under ""). Records that do not count (unconfirmed, imported) are
 * left out. Currencies come busiest first, categories largest first.
 */
export function summarize(records: readonly MoneyRecord[], wallets: ReadonlyMap<string, Wallet>): CurrencySummary[] {
  const byCurrency = new Map<string, { income: number; expense: number; cats: Map<string, CategoryRow> }>();
  for (const r of records) {
    if (!counts(r) || (r.klass !== 'Income' && r.klass !== 'Outgo')) continue;
    const wallet = r.wallet_id ? wallets.get(r.wallet_id) : undefined;
    const currency = (r.currency || wallet?.currency || '').toUpperCase();
    if (!currency || typeof r.value !== 'number') continue;
    const units = toStandardUnits(r.value, wallet?.precision ?? 2, currency);
    let c = byCurrency.get(currency);
    if (!c) byCurrency.set(currency, (c = { income: 0, expense: 0, cats: new Map() }));
    const side = r.klass === 'Income' ? 'income' : 'expense';
    c[side] += units;
    const cats = r.categories && r.categories.length > 0 ? r.categories : [''];
    for (const name of new Set(cats)) {
      let row = c.cats.get(name);
      if (!row) c.cats.set(name, (row = { category: name, income: 0, expense: 0 }));
      row[side] += units;
    }
  }
  return [...byCurrency.entries()]
    .map(([currency, c]) => ({
      currency,
      precision: minorDigits(currency),
      income: c.income,
      expense: c.expense,
      net: c.income - c.expense,
      categories: [...c.cats.values()].sort((a, b) => b.income + b.expense - (a.income + a.expense) || a.category.localeCompare(b.category)),
    }))
    .sort((a, b) => b.income + b.expense - (a.income + a.expense) || a.currency.localeCompare(b.currency));
}

/** topCategories keeps the n largest and folds the rest into one row named other. */
export function topCategories(rows: readonly CategoryRow[], n: number, other: string): CategoryRow[] {
  if (rows.length <= n) return [...rows];
  const rest = rows.slice(n - 1).reduce((acc, r) => ({ category: other, income: acc.income + r.income, expense: acc.expense + r.expense }), { category: other, income: 0, expense: 0 });
  return [...rows.slice(0, n - 1), rest];
}
