// Incomes, expenses, transfers and exchanges: the indexes' _find, one
// record, the state handlers (confirm, unconfirm, import, unimport), bulk
// confirmation, and the reads behind the charts.

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { findPage, find, getDoc, type WriteResult } from '../../../lib/couch';
import { asApiError, type ApiError } from '../../../lib/errors';
import { recordSelector, type RecordFilters } from '../filters';
import { KIND_LIST, SCOPE, type KindDef, type MoneyRecord } from './types';

export interface RecordListInput {
  db: string;
  kind: KindDef;
  filters: RecordFilters;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface RecordPage {
  docs: MoneyRecord[];
  hasMore: boolean;
}

export const recordsQuery = (input: RecordListInput) =>
  queryOptions({
    queryKey: [SCOPE, input.db, 'list', input.kind.klass, input.filters, input.orderBy, input.direction, input.page, input.perPage],
    queryFn: async (): Promise<RecordPage> => {
      return findPage<MoneyRecord>(input.db, { selector: recordSelector(input.kind, input.filters), orderBy: input.orderBy, direction: input.direction, page: input.page, perPage: input.perPage });
    },
    placeholderData: keepPreviousData,
  });

export const recordQuery = (db: string, id: string) =>
  queryOptions({ queryKey: [SCOPE, db, 'record', id], queryFn: () => getDoc<MoneyRecord>(db, id), retry: false });

export type StateChange = 'confirm' | 'unconfirm' | 'import' | 'unimport';

/** changeState calls the server's update handler; the record's state changes once (a second call is a 422). */
export const changeState = (db: string, id: string, fn: StateChange) =>
  api.put<WriteResult>(`${enc(db)}/_design/money/_update/${fn}/${enc(id)}`, {});

export interface BulkResult {
  id: string;
  ok: boolean;
  error?: ApiError;
}

/**
 * runBulk calls fn for each id, one at a time (a Group's writes queue on
 * the server anyway), reporting progress after each; a failure is kept
 * with its id and the run goes on.
 */
export async function runBulk(ids: readonly string[], fn: (id: string) => Promise<unknown>, onProgress?: (done: number, results: BulkResult[]) => void): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const id of ids) {
    try {
      await fn(id);
      results.push({ id, ok: true });
    } catch (e) {
      results.push({ id, ok: false, error: asApiError(e) });
    }
    onProgress?.(results.length, [...results]);
  }
  return results;
}

/** The fields the charts read. */
const CHART_FIELDS = ['_id', 'klass', 'posted_at', 'created_at', 'confirmed', 'imported', 'value', 'value_in', 'value_out', 'fee', 'fee_kind', 'wallet_id', 'source_wallet_id', 'destination_wallet_id', 'currency', 'categories'];
const PAGE = 5000;
const MAX_PAGES = 20;

/** findAll follows _find bookmarks (a page of at most PAGE rows each) up to MAX_PAGES pages. */
async function findAll(db: string, selector: Record<string, unknown>): Promise<MoneyRecord[]> {
  const out: MoneyRecord[] = [];
  let bookmark: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await find<MoneyRecord>(db, { selector, fields: CHART_FIELDS, limit: PAGE, ...(bookmark ? { bookmark } : {}) });
    const docs = res.docs ?? [];
    out.push(...docs);
    if (docs.length < PAGE || !res.bookmark) break;
    bookmark = res.bookmark;
  }
  return out;
}

/** The confirmed, reviewed records that touch a wallet: what its balance is made of. */
export const walletMovesQuery = (db: string, walletId: string) =>
  queryOptions({
    queryKey: [SCOPE, db, 'moves', walletId],
    queryFn: async () => {
      const counted = { confirmed: true, imported: false };
      const lists = await Promise.all(
        KIND_LIST.map((k) =>
          findAll(db, k.twoWallets ? { klass: k.klass, ...counted, $or: [{ source_wallet_id: walletId }, { destination_wallet_id: walletId }] } : { klass: k.klass, ...counted, wallet_id: walletId }),
        ),
      );
      return lists.flat();
    },
  });

/** The confirmed, reviewed revenues and expenses posted since a day (the dashboard's period). */
export const periodQuery = (db: string, since: string) =>
  queryOptions({
    queryKey: [SCOPE, db, 'period', since],
    queryFn: async () => {
      const sel = { confirmed: true, imported: false, posted_at: { $gte: since } };
      const [incomes, outgos] = await Promise.all([findAll(db, { klass: 'Income', ...sel }), findAll(db, { klass: 'Outgo', ...sel })]);
      return [...incomes, ...outgos];
    },
    placeholderData: keepPreviousData,
  });

/** One page of a wallet's records of one kind, newest first. */
export const walletRecordsQuery = (db: string, walletId: string, kind: KindDef, page: number, perPage: number) =>
  recordsQuery({ db, kind, filters: { q: '', wallet: walletId, category: '', month: '', state: 'all' }, orderBy: 'posted_at', direction: 'desc', page, perPage });
