// The CouchDB-style document calls every feature shares (DESIGN §3).

import { api, enc } from './api';

export interface Stamp {
  _id: string;
  label?: string;
}

export interface Doc {
  _id: string;
  _rev?: string;
  klass?: string;
  created_at?: string;
  updated_at?: string;
  created_by?: Stamp;
  updated_by?: Stamp;
  [field: string]: unknown;
}

export type SortSpec = Array<Record<string, 'asc' | 'desc'>>;

export interface FindRequest {
  selector: Record<string, unknown>;
  fields?: string[];
  sort?: SortSpec;
  limit?: number;
  skip?: number;
  bookmark?: string;
}

export interface FindResponse<T> {
  docs: T[];
  bookmark?: string;
  warning?: string;
}

export interface DbInfo {
  db_name?: string;
  update_seq: number | string;
  doc_count: number;
}

export interface WriteResult {
  ok: boolean;
  id: string;
  rev: string;
  /** The document as stored (what a GET reads), on a save sent with RETURN_DOC. */
  doc?: Doc;
}

/**
 * RETURN_DOC asks a save to answer the document as stored too (RFC 7240; docs/api.md), so the screen that shows
 * it needs no second request (lib/live-deps.ts refetchOwnWrite).
 */
export const RETURN_DOC = { Prefer: 'return=representation' };

export interface ChangeRow<T = Doc> {
  seq: number | string;
  id: string;
  changes: Array<{ rev: string }>;
  deleted?: boolean;
  doc?: T;
}

export interface ChangesResponse<T = Doc> {
  results: Array<ChangeRow<T>>;
  last_seq: number | string;
}

export interface ViewResponse<K = unknown, V = unknown> {
  rows: Array<{ key: K; value: V; id?: string }>;
}

export const find = <T>(db: string, req: FindRequest) => api.post<FindResponse<T>>(`${enc(db)}/_find`, req);

/** One numbered page of a list (page counts from 1). */
export interface PageRequest {
  selector: Record<string, unknown>;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface FoundPage<T> {
  docs: T[];
  hasMore: boolean;
}

/** findPage reads one page through _find; one extra row tells whether another page exists. */
export async function findPage<T>(db: string, req: PageRequest): Promise<FoundPage<T>> {
  const res = await find<T>(db, {
    selector: req.selector,
    sort: [{ [req.orderBy]: req.direction }],
    limit: req.perPage + 1,
    skip: (req.page - 1) * req.perPage,
  });
  const docs = res.docs ?? [];
  return { docs: docs.slice(0, req.perPage), hasMore: docs.length > req.perPage };
}

export const getDoc = <T>(db: string, id: string, fields?: string[]) =>
  api.get<T>(`${enc(db)}/${enc(id)}`, fields ? { fields: fields.join(',') } : undefined);

export const putDoc = (db: string, doc: Doc) =>
  api.put<WriteResult>(`${enc(db)}/${enc(doc._id)}`, doc, doc._rev ? { rev: doc._rev } : undefined, RETURN_DOC);

/** A document to create: the server makes its id when it has none. */
export type NewDoc = Omit<Doc, '_id'> & { _id?: string };

export const postDoc = (db: string, doc: NewDoc) => api.post<WriteResult>(enc(db), doc, undefined, RETURN_DOC);

export const deleteDoc = (db: string, id: string, rev: string) =>
  api.del<WriteResult>(`${enc(db)}/${enc(id)}`, { rev });

export const dbInfo = (db: string) => api.get<DbInfo>(enc(db));

/** saveDoc writes a record of klass: PUT when it has an id (an edit), else POST (the server makes the id). */
export function saveDoc(db: string, klass: string, doc: Record<string, unknown> & { _id?: string }): Promise<WriteResult> {
  const body = { ...doc, klass } as NewDoc;
  return body._id ? putDoc(db, body as NewDoc & { _id: string }) : postDoc(db, body);
}

/** escapeRegex makes text a literal inside a Mango $regex. */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
