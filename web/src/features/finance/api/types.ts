// The finance records as the server keeps them (shared/finance): money as
// integer minor units at the wallet's precision, never a float.

import type { IconName } from '../../../components/icons';
import type { Doc } from '../../../lib/couch';

export interface Wallet extends Doc {
  name?: string;
  label?: string;
  active?: boolean;
  card?: boolean;
  currency?: string;
  precision?: number;
  start_balance?: number;
  card_limit?: number;
}

/** A wallet's figures from the by-wallet view, in its minor units. */
export interface WalletFigures {
  currency: string;
  balance: number;
  pending_transactions: number;
  balance_after_pending: number;
  available_credit?: number;
  precision: number;
}

export type MoneyKind = 'income' | 'outgo' | 'transfer' | 'exchange';
export type FeeKind = 'source' | 'destination';

export interface MoneyRecord extends Doc {
  description?: string;
  posted_at?: string;
  confirmed?: boolean;
  imported?: boolean;
  categories?: string[];
  currency?: string;
  value?: number;
  value_in?: number;
  value_out?: number;
  fee?: number;
  fee_kind?: FeeKind;
  paid_by?: string;
  paid_to?: string;
  wallet_id?: string;
  source_wallet_id?: string;
  destination_wallet_id?: string;
  import_file?: string;
  import_line?: number;
}

export const MAPPING_TARGETS = ['income', 'outgo', 'transfer', 'exchange'] as const;
export const MAPPING_FIELDS = ['description', 'third_party', 'categories'] as const;
export const MAPPING_WATCHES = ['contains', 'starts_with', 'ends_with', 'equals'] as const;
export const MAPPING_CHANGES = ['replace', 'append', 'prepend'] as const;

export interface Mapping extends Doc {
  description?: string;
  active?: boolean;
  order?: number;
  number?: number;
  target?: (typeof MAPPING_TARGETS)[number];
  field_to_watch?: (typeof MAPPING_FIELDS)[number];
  kind_of_watch?: (typeof MAPPING_WATCHES)[number];
  text_to_match?: string;
  kind_of_change?: (typeof MAPPING_CHANGES)[number];
  field_to_change?: (typeof MAPPING_FIELDS)[number];
  text_to_change?: string;
}

export interface KindDef {
  kind: MoneyKind;
  set: 'incomes' | 'outgos' | 'transfers' | 'exchanges';
  klass: 'Income' | 'Outgo' | 'Transfer' | 'Exchange';
  icon: IconName;
  /** Two wallets (transfers, exchanges) or one. */
  twoWallets: boolean;
  /** The third party's field, searched with the description. */
  party?: 'paid_by' | 'paid_to';
  /** The main amount (sorting, the table's column). */
  amount: 'value' | 'value_out';
}

export const KINDS: Record<MoneyKind, KindDef> = {
  income: { kind: 'income', set: 'incomes', klass: 'Income', icon: 'income', twoWallets: false, party: 'paid_by', amount: 'value' },
  outgo: { kind: 'outgo', set: 'outgos', klass: 'Outgo', icon: 'outgo', twoWallets: false, party: 'paid_to', amount: 'value' },
  transfer: { kind: 'transfer', set: 'transfers', klass: 'Transfer', icon: 'transfer', twoWallets: true, amount: 'value' },
  exchange: { kind: 'exchange', set: 'exchanges', klass: 'Exchange', icon: 'exchange', twoWallets: true, party: 'paid_to', amount: 'value_out' },
};

export const KIND_LIST: KindDef[] = [KINDS.income, KINDS.outgo, KINDS.transfer, KINDS.exchange];

/** kindOfSet: the money kind a route's set shows (incomes → income), income by default. */
export function kindOfSet(set: string | undefined): KindDef {
  return KIND_LIST.find((k) => k.set === set) ?? KINDS.income;
}

export function kindOfKlass(klass: string | undefined): KindDef | undefined {
  return KIND_LIST.find((k) => k.klass === klass);
}

/** The root of every finance query key: refreshed after any finance write. */
export const SCOPE = 'finance';
