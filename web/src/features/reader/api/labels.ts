// Labels (SPEC §3 ReaderLabel: name, label, kind), several per subscription,
// and the unread counts per label the server keeps
// (GET /{db}/_design/reader/_view/unread-by-label?group_level=1).

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { deleteDoc, find, getDoc, postDoc, putDoc, type ViewResponse } from '../../../lib/couch';
import { newId } from '../../../lib/ids';
import type { ReaderLabel } from './types';

export async function listLabels(db: string): Promise<ReaderLabel[]> {
  const res = await find<ReaderLabel>(db, { selector: { klass: 'ReaderLabel' }, limit: 1000 });
  return [...res.docs].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

export const labelsQuery = (db: string) =>
  queryOptions({ queryKey: ['reader', db, 'labels'], queryFn: () => listLabels(db), staleTime: 60_000 });

export const useLabels = (db: string) => useQuery(labelsQuery(db));

export const labelQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['reader', db, 'label', id], queryFn: () => getDoc<ReaderLabel>(db, id) });

export const createLabel = (db: string, input: { name: string; kind?: string }) =>
  postDoc(db, { _id: newId('rlb'), klass: 'ReaderLabel', ...input });

export const saveLabel = (db: string, doc: ReaderLabel) => putDoc(db, doc);

export const deleteLabel = (db: string, id: string, rev: string) => deleteDoc(db, id, rev);

/** fetchUnread: label id → unread items ("" for every item). */
export async function fetchUnread(db: string): Promise<Record<string, number>> {
  const res = await api.get<ViewResponse<string | null, number>>(`${enc(db)}/_design/reader/_view/unread-by-label`, { group_level: 1 });
  const out: Record<string, number> = {};
  for (const r of res?.rows ?? []) out[r.key ?? ''] = r.value;
  return out;
}

export const unreadQuery = (db: string) => queryOptions({ queryKey: ['reader', db, 'unread'], queryFn: () => fetchUnread(db), staleTime: 30_000 });
