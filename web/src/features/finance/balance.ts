// A wallet's balance over time, computed in the browser from its opening
// balance and the confirmed, reviewed (not imported) records that touch it,
// day by day on posted_at — the same moves the server's tallies count
// (shared/finance.Moves), so the last point equals the wallet's balance.

import type { MoneyRecord } from './api/types';

const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

/**
 * moves: what a record does to each wallet it names, in minor units. An
 * income adds its value, an expense takes it; a transfer takes value (plus
 * the fee when the source pays it) and gives value (less the fee when the
 * destination pays it); an exchange takes value_out and gives value_in, the
 * fee on its side.
 */
export function moves(r: MoneyRecord): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (id: string | undefined, n: number) => {
    if (id) out[id] = (out[id] ?? 0) + n;
  };
  const fee = int(r.fee);
  const onSource = r.fee_kind !== 'destination';
  switch (r.klass) {
    case 'Income':
      add(r.wallet_id, int(r.value));
      break;
    case 'Outgo':
      add(r.wallet_id, -int(r.value));
      break;
    case 'Transfer':
    case 'Exchange': {
      let give = r.klass === 'Exchange' ? int(r.value_in) : int(r.value);
      let take = r.klass === 'Exchange' ? int(r.value_out) : int(r.value);
      if (onSource) take += fee;
      else give -= fee;
      add(r.source_wallet_id, -take);
      add(r.destination_wallet_id, give);
      break;
    }
  }
  return out;
}

/** counts: whether a record moves the balance (confirmed and reviewed). */
export const counts = (r: Pick<MoneyRecord, 'confirmed' | 'imported'>) => r.confirmed === true && r.imported !== true;

export interface BalancePoint {
  /** YYYY-MM-DD */
  date: string;
  /** The balance at the end of that day, in the wallet's minor units. */
  balance: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

/** dayOf: a record's day — posted_at, else the day it was created. */
export function dayOf(r: Pick<MoneyRecord, 'posted_at' | 'created_at'>): string | null {
  if (typeof r.posted_at === 'string' && DATE.test(r.posted_at)) return r.posted_at.slice(0, 10);
  if (typeof r.created_at === 'string' && DATE.test(r.created_at)) return r.created_at.slice(0, 10);
  return null;
}

export function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * balanceSeries: the opening balance the day before the first record, then
 * the balance at the end of each day with a move. Records that do not
 * count (unconfirmed, imported), that do not touch the wallet or have no
 * day are left out. Without any, one point: the opening balance today.
 */
export function balanceSeries(walletId: string, startBalance: number | undefined, records: readonly MoneyRecord[], today: string): BalancePoint[] {
  const byDay = new Map<string, number>();
  for (const r of records) {
    if (!counts(r)) continue;
    const day = dayOf(r);
    const move = moves(r)[walletId];
    if (!day || !move) continue;
    byDay.set(day, (byDay.get(day) ?? 0) + move);
  }
  let balance = int(startBalance);
  const days = [...byDay.keys()].sort();
  if (days.length === 0) return [{ date: today, balance }];
  const points: BalancePoint[] = [{ date: dayBefore(days[0]!), balance }];
  for (const day of days) {
    balance += byDay.get(day)!;
    points.push({ date: day, balance });
  }
  return points;
}
