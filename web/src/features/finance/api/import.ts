// The statement import's calls (server: shared/finance/importer.go): the
// file is the body, the options are query parameters.

import { enc, type Query } from '../../../lib/api';
import { find } from '../../../lib/couch';
import { uploadFile, type UploadProgress } from '../../../lib/upload';

export type ColumnField = 'date' | 'description' | 'value' | 'debit' | 'credit' | 'third_party' | 'categories';
export const COLUMN_FIELDS: readonly ColumnField[] = ['date', 'description', 'value', 'debit', 'credit', 'third_party', 'categories'];

export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
  'MM-DD-YYYY',
  'YYYY/MM/DD',
  'DD/MM/YY',
  'MM/DD/YY',
  'YYYYMMDD',
] as const;

export interface ImportOptions {
  format: 'csv' | 'ofx';
  encoding: 'utf-8' | 'windows-1252';
  delimiter: string;
  decimal: ',' | '.';
  date_format: string;
  first_line_is_header: boolean;
  skip: number;
  most_items_are: 'income' | 'outgo';
  columns: Record<ColumnField, number>;
}

export type RowStatus = 'new' | 'duplicate' | 'imported';

export interface PreviewRow {
  line: number;
  klass: 'Income' | 'Outgo';
  posted_at: string;
  description: string;
  third_party?: string;
  categories?: string[];
  value: number;
  status: RowStatus;
  rules: string[];
}

export interface CheckResult {
  options: ImportOptions;
  from_profile: boolean;
  headers: string[];
  currency: string;
  precision: number;
  rows: number;
  incomes: number;
  outgos: number;
  income_total: number;
  outgo_total: number;
  new: number;
  duplicates: number;
  imported: number;
  blank: number;
  preview: PreviewRow[];
  problem?: { reason: string; fields: Record<string, string[]> };
}

export interface ImportResult {
  ok: boolean;
  rows: number;
  created: number;
  duplicates: number;
  imported: number;
  blank: number;
}

/** Overrides are the options the user changed; detect drops the wallet's profile. */
export interface Overrides {
  options?: Partial<Omit<ImportOptions, 'columns' | 'format'>>;
  columns?: Partial<Record<ColumnField, number>>;
  detect?: boolean;
  keep?: number[];
}

/** toQuery turns the overrides into the routes' query parameters. */
export function toQuery(wallet: string, o: Overrides): Query {
  const q: Query = { wallet_id: wallet };
  for (const [k, v] of Object.entries(o.options ?? {})) {
    if (v === undefined) continue;
    q[k] = k === 'delimiter' && v === '\t' ? 'tab' : String(v);
  }
  for (const [k, v] of Object.entries(o.columns ?? {})) {
    if (v !== undefined) q[`col_${k}`] = v;
  }
  if (o.detect) q.detect = 'true';
  if (o.keep && o.keep.length > 0) q.keep = o.keep.join(',');
  return q;
}

export function checkStatement(db: string, wallet: string, file: File, o: Overrides, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal) {
  return uploadFile<CheckResult>(`${enc(db)}/_finance/import/check`, file, toQuery(wallet, o), onProgress, signal);
}

export function importStatement(db: string, wallet: string, file: File, o: Overrides, onProgress?: (p: UploadProgress) => void) {
  return uploadFile<ImportResult>(`${enc(db)}/_finance/import`, file, toQuery(wallet, o), onProgress);
}

export interface WalletChoice {
  _id: string;
  name: string;
  currency: string;
  precision?: number;
  active?: boolean;
}

export async function listWallets(db: string): Promise<WalletChoice[]> {
  const r = await find<WalletChoice>(db, {
    selector: { klass: 'Wallet' },
    fields: ['_id', 'name', 'currency', 'precision', 'active'],
    sort: [{ name: 'asc' }],
    limit: 500,
  });
  return r.docs;
}

/** problemLine splits "line 7: The date column or format is wrong" into its line and message. */
export function problemLine(reason: string): { line: number | null; message: string } {
  const m = /^line (\d+): (.*)$/s.exec(reason);
  return m ? { line: Number(m[1]), message: m[2]! } : { line: null, message: reason };
}

/**
 * dynamicMessage recognises the server's messages that carry values (an
 * amount, counts, currencies) as an i18n key with its values; others are
 * null and go through the error catalogue.
 */
export function dynamicMessage(msg: string): { key: string; values: Record<string, string> } | null {
  const patterns: Array<[RegExp, string, string[]]> = [
    [/^"(.*)" is not an amount$/s, 'notAmount', ['value']],
    [/^"(.*)" has more decimals than the wallet's (\d+)$/s, 'tooManyDecimals', ['value', 'precision']],
    [/^(\d+) fields where the file has (\d+)$/, 'ragged', ['got', 'want']],
    [/^(\d+) fields, fewer than the columns chosen$/, 'fewFields', ['got']],
    [/^The statement is in (\w+) and the wallet in (\w+)$/, 'otherCurrency', ['statement', 'wallet']],
    [/^The OFX statement could not be read: (.*)$/s, 'badOfx', ['detail']],
  ];
  for (const [re, key, names] of patterns) {
    const m = re.exec(msg);
    if (m) return { key: `finance.upload.messages.${key}`, values: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) };
  }
  return null;
}

/** mergeOverrides adds a change to the choices so far (a new detection starts over). */
export function mergeOverrides(prev: Overrides, change: Overrides): Overrides {
  if (change.detect) return { detect: true };
  return {
    options: { ...prev.options, ...change.options },
    columns: { ...prev.columns, ...change.columns },
  };
}
