// The balances panel (SPEC §7): the wallet-balances view by currency,
// group_level=1 and reduce=true. The server sums each currency in its ISO
// 4217 minor units (cents for BRL and USD, none for JPY); an older server
// without the view answers 404, which reads as "no balances".

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ViewResponse } from '../../../lib/couch';
import { ApiError } from '../../../lib/errors';

export interface Balance {
  currency: string;
  balance: number;
}

/** minorDigits: the currency's ISO 4217 minor digits (2 when Intl does not know it). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

function units(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object') {
    const o = v as { balance?: unknown; sum?: unknown };
    if (typeof o.balance === 'number') return o.balance;
    if (typeof o.sum === 'number') return o.sum;
  }
  return 0;
}

/** positiveBalances keeps only currencies whose balance is above 0 (SPEC §2). */
export function positiveBalances(res: ViewResponse | undefined): Balance[] {
  return (res?.rows ?? [])
    .map((r) => {
      const currency = String(Array.isArray(r.key) ? r.key[0] : (r.key ?? ''));
      return { currency, balance: units(r.value) / 10 ** minorDigits(currency) };
    })
    .filter((b) => b.currency && b.balance > 0);
}

export async function fetchBalances(db: string): Promise<Balance[]> {
  try {
    const res = await api.get<ViewResponse>(`${enc(db)}/_design/wallet-balances/_view/by-currency`, { group_level: 1, reduce: true });
    return positiveBalances(res);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

export const balancesQuery = (db: string) =>
  queryOptions({ queryKey: ['balances', db], queryFn: () => fetchBalances(db), staleTime: 60_000 });
