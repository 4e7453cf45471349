// Wallets: every wallet of the Group (a Group has tens, so pickers, the
// index and money formatting share one list), one wallet, and the figures
// the server keeps per wallet (the by-wallet view: O(1) counters).

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { find, getDoc, type ViewResponse } from '../../../lib/couch';
import { ApiError } from '../../../lib/errors';
import { SCOPE, type Wallet, type WalletFigures } from './types';

export const WALLETS_LIMIT = 1000;

export const walletsQuery = (db: string) =>
  queryOptions({
    queryKey: [SCOPE, db, 'wallets'],
    queryFn: () => find<Wallet>(db, { selector: { klass: 'Wallet' }, sort: [{ name: 'asc' }], limit: WALLETS_LIMIT }).then((r) => r.docs ?? []),
    staleTime: 30_000,
  });

export const walletQuery = (db: string, id: string) =>
  queryOptions({ queryKey: [SCOPE, db, 'wallet', id], queryFn: () => getDoc<Wallet>(db, id), retry: false });

/** figuresFrom reads the by-wallet view's rows into a map by wallet id. */
export function figuresFrom(res: ViewResponse | undefined): Record<string, WalletFigures> {
  const out: Record<string, WalletFigures> = {};
  for (const row of res?.rows ?? []) {
    const id = Array.isArray(row.key) ? row.key[0] : row.key;
    const v = row.value as Partial<WalletFigures> | null;
    if (typeof id !== 'string' || !v || typeof v !== 'object') continue;
    out[id] = {
      currency: String(v.currency ?? ''),
      balance: Number(v.balance ?? 0),
      pending_transactions: Number(v.pending_transactions ?? 0),
      balance_after_pending: Number(v.balance_after_pending ?? 0),
      ...(typeof v.available_credit === 'number' ? { available_credit: v.available_credit } : {}),
      precision: typeof v.precision === 'number' ? v.precision : 2,
    };
  }
  return out;
}

export const figuresQuery = (db: string) =>
  queryOptions({
    queryKey: [SCOPE, db, 'figures'],
    queryFn: async () => {
      try {
        return figuresFrom(await api.get<ViewResponse>(`${enc(db)}/_design/wallet-balances/_view/by-wallet`, { group_level: 1 }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return {};
        throw err;
      }
    },
  });

/** walletLabel: "Name · BRL". */
export const walletLabel = (w: Wallet | undefined) => (w ? `${w.name || w._id}${w.currency ? ` · ${w.currency}` : ''}` : '');

/** A map of wallets by id. */
export const byId = (wallets: readonly Wallet[] | undefined) => new Map((wallets ?? []).map((w) => [w._id, w]));

/** The ISO codes offered first in the currency picker (any 3-letter code may be typed). */
export const COMMON_CURRENCIES = ['BRL', 'USD', 'EUR', 'GBP', 'JPY', 'ARS', 'CAD', 'AUD', 'CHF', 'CNY', 'MXN', 'CLP', 'COP', 'PEN', 'UYU', 'PYG'] as const;

/** knownCurrency: three letters that Intl knows as a currency (every code when the runtime cannot list them). */
export function knownCurrency(code: string): boolean {
  const c = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(c)) return false;
  const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('currency');
  return !list || list.length === 0 || list.includes(c);
}
