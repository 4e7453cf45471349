// Subscriptions (SPEC §3 ReaderSubscription): listed with _find, created
// through POST /{db}/_reader/subscriptions (discovers the feed of a web page,
// fetches it, subscribes), edited and deleted as documents; the fetch state
// from GET /{db}/_reader/subscriptions/{id}/status.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { deleteDoc, find, getDoc, putDoc, type WriteResult } from '../../../lib/couch';
import type { ReaderSubscription } from './types';

export async function listSubscriptions(db: string): Promise<ReaderSubscription[]> {
  const res = await find<ReaderSubscription>(db, { selector: { klass: 'ReaderSubscription' }, limit: 5000 });
  return [...res.docs].sort((a, b) => (a.title ?? a.url).localeCompare(b.title ?? b.url, undefined, { sensitivity: 'base' }));
}

export const subscriptionsQuery = (db: string) =>
  queryOptions({ queryKey: ['reader', db, 'subscriptions'], queryFn: () => listSubscriptions(db), staleTime: 30_000 });

export const useSubscriptions = (db: string) => useQuery(subscriptionsQuery(db));

export const subscriptionQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['reader', db, 'subscription', id], queryFn: () => getDoc<ReaderSubscription>(db, id) });

export interface SubscribeInput {
  url: string;
  title?: string;
  customize_title?: boolean;
  active?: boolean;
  reader_label_ids?: string[];
  refresh_interval?: number;
}

export interface SubscribeResult extends WriteResult {
  url: string;
  title: string;
  items: number;
}

export const subscribe = (db: string, input: SubscribeInput) => api.post<SubscribeResult>(`${enc(db)}/_reader/subscriptions`, input);

export const saveSubscription = (db: string, doc: ReaderSubscription) => putDoc(db, doc);

export const deleteSubscription = (db: string, id: string, rev: string) => deleteDoc(db, id, rev);

export interface FetchStatus {
  id: string;
  url: string;
  fetch_status: 'ok' | 'error' | 'pending';
  fetch_error: string;
  errors: number;
  last_error: string;
  last_status: number;
  checked_at: string | null;
  fetched_at: string | null;
  next_at: string | null;
}

export const subscriptionStatusQuery = (db: string, id: string) =>
  queryOptions({
    queryKey: ['reader', db, 'subscription', id, 'status'],
    queryFn: () => api.get<FetchStatus>(`${enc(db)}/_reader/subscriptions/${enc(id)}/status`),
  });
