// The balances panel (SPEC §7): the wallet-balances view by currency,
// group_level=1 and reduce=true. Until finance builds that view the server
// answers 404, which reads as "no balances".

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ViewResponse } from '../../../lib/couch';
import { ApiError } from '../../../lib/errors';

export interface Balance {
  currency: string;
  balance: number;
}

function amount(v: unknown): number {
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
    .map((r) => ({ currency: String(Array.isArray(r.key) ? r.key[0] : (r.key ?? '')), balance: amount(r.value) }))
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
