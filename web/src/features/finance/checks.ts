// What the forms check before sending, keyed and worded as the server
// refuses (so the messages translate the same way and land under the same
// fields): required fields, amounts, and a transfer's or exchange's wallets.

import type { FieldErrors } from '../../lib/errors';
import { knownCurrency } from './api/wallets';
import type { KindDef, Wallet } from './api/types';

export const MSG = {
  blank: "can't be blank",
  notNumber: 'is not a number',
  negative: 'must be greater than or equal to 0',
  sameWallet: 'must be another wallet than the source',
  needsTransfer: "has the source wallet's currency: create a transfer",
  needsExchange: 'has another currency than the source wallet: create an exchange',
  currency: 'is not a known currency code (ISO 4217, like USD or BRL)',
} as const;

/** The money fields of each kind and the wallet whose currency each is in. */
export function amountFields(kind: Pick<KindDef, 'kind'>, feeKind: unknown): Array<{ name: string; required: boolean; wallet: 'wallet_id' | 'source_wallet_id' | 'destination_wallet_id' }> {
  switch (kind.kind) {
    case 'income':
    case 'outgo':
      return [{ name: 'value', required: true, wallet: 'wallet_id' }];
    case 'transfer':
      return [
        { name: 'value', required: true, wallet: 'source_wallet_id' },
        { name: 'fee', required: false, wallet: feeKind === 'destination' ? 'destination_wallet_id' : 'source_wallet_id' },
      ];
    case 'exchange':
      return [
        { name: 'value_out', required: true, wallet: 'source_wallet_id' },
        { name: 'value_in', required: true, wallet: 'destination_wallet_id' },
        { name: 'fee', required: false, wallet: feeKind === 'destination' ? 'destination_wallet_id' : 'source_wallet_id' },
      ];
  }
}

/**
 * walletsHint: what the server would say of a transfer's or exchange's two
 * wallets (null when they are fine or not both chosen yet).
 */
export function walletsHint(kind: Pick<KindDef, 'kind'>, source: Wallet | undefined, destination: Wallet | undefined): string | null {
  if (!source || !destination || (kind.kind !== 'transfer' && kind.kind !== 'exchange')) return null;
  if (source._id === destination._id) return MSG.sameWallet;
  const same = (source.currency ?? '').toUpperCase() === (destination.currency ?? '').toUpperCase();
  if (kind.kind === 'transfer' && !same) return MSG.needsExchange;
  if (kind.kind === 'exchange' && same) return MSG.needsTransfer;
  return null;
}

/** checkRecord: the refusals a money record's form can tell before sending. */
export function checkRecord(kind: Pick<KindDef, 'kind' | 'twoWallets'>, v: Record<string, unknown>, wallets: ReadonlyMap<string, Wallet>): FieldErrors {
  const errs: FieldErrors = {};
  if (!String(v.description ?? '').trim()) errs.description = [MSG.blank];
  const walletFields = kind.twoWallets ? ['source_wallet_id', 'destination_wallet_id'] : ['wallet_id'];
  for (const f of walletFields) if (!v[f]) errs[f] = [MSG.blank];
  for (const a of amountFields(kind, v.fee_kind)) {
    const n = v[a.name];
    if (n === null || n === undefined || n === '') {
      if (a.required) errs[a.name] = [MSG.blank];
    } else if (typeof n !== 'number' || Number.isNaN(n)) errs[a.name] = [MSG.notNumber];
    else if (n < 0) errs[a.name] = [MSG.negative];
  }
  if (kind.twoWallets && !errs.destination_wallet_id && !errs.source_wallet_id) {
    const hint = walletsHint(kind, wallets.get(String(v.source_wallet_id)), wallets.get(String(v.destination_wallet_id)));
    if (hint) errs.destination_wallet_id = [hint];
  }
  return errs;
}

/** checkWallet: a wallet's name, currency and amounts. */
export function checkWallet(v: Record<string, unknown>): FieldErrors {
  const errs: FieldErrors = {};
  if (!String(v.name ?? '').trim()) errs.name = [MSG.blank];
  const cur = String(v.currency ?? '').trim();
  if (!cur) errs.currency = [MSG.blank];
  else if (!knownCurrency(cur)) errs.currency = [MSG.currency];
  for (const f of ['start_balance', 'card_limit']) {
    const n = v[f];
    if (n === null || n === undefined || n === '') continue;
    if (typeof n !== 'number' || Number.isNaN(n)) errs[f] = [MSG.notNumber];
    else if (f === 'card_limit' && n < 0) errs[f] = [MSG.negative];
  }
  return errs;
}

/** checkMapping: the rule's required parts. */
export function checkMapping(v: Record<string, unknown>): FieldErrors {
  const errs: FieldErrors = {};
  for (const f of ['description', 'target', 'field_to_watch', 'kind_of_watch', 'text_to_match', 'kind_of_change', 'field_to_change']) {
    if (!String(v[f] ?? '').trim()) errs[f] = [MSG.blank];
  }
  const order = v.order;
  if (order !== null && order !== undefined && order !== '' && (typeof order !== 'number' || !Number.isInteger(order) || order < 0)) errs.order = [MSG.negative];
  return errs;
}
