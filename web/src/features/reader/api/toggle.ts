// Read/unread and star/unstar (SPEC §4, §7):
// PUT /{db}/_design/status/_update/{read|unread|star|unstar}/{id}. The feed
// pages in the cache show the change at once and keep the item where it is
// (an item read in the unread list stays until the list is loaded again);
// the counts are refetched.

import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { WriteResult } from '../../../lib/couch';
import type { FeedPage } from './feed';
import type { ReaderItem } from './types';

export type ToggleFn = 'read' | 'unread' | 'star' | 'unstar';

export const toggleItem = (db: string, id: string, fn: ToggleFn) =>
  api.put<WriteResult>(`${enc(db)}/_design/status/_update/${fn}/${enc(id)}`, {});

/** patchOf is the change a toggle makes to an item. */
export function patchOf(fn: ToggleFn): Partial<ReaderItem> {
  switch (fn) {
    case 'read':
      return { read: true };
    case 'unread':
      return { read: false };
    case 'star':
      return { starred: true };
    case 'unstar':
      return { starred: false };
  }
}

function patchCaches(qc: QueryClient, db: string, id: string, patch: Partial<ReaderItem>) {
  qc.setQueriesData<FeedPage>({ queryKey: ['reader', db, 'feed'] }, (page) =>
    page ? { ...page, rows: page.rows.map((r) => (r.id === id ? { ...r, doc: { ...r.doc, ...patch } } : r)) } : page,
  );
  qc.setQueryData<ReaderItem>(['reader', db, 'item', id], (doc) => (doc ? { ...doc, ...patch } : doc));
}

export function useToggleItem(db: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fn }: { id: string; fn: ToggleFn }) => toggleItem(db, id, fn),
    onMutate: ({ id, fn }) => patchCaches(qc, db, id, patchOf(fn)),
    onError: (_err, { id, fn }) => {
      const undo: Record<ToggleFn, ToggleFn> = { read: 'unread', unread: 'read', star: 'unstar', unstar: 'star' };
      patchCaches(qc, db, id, patchOf(undo[fn]));
    },
    onSettled: (_res, _err, { id }) => {
      void qc.invalidateQueries({ queryKey: ['reader', db, 'feed'], refetchType: 'none' });
      void qc.invalidateQueries({ queryKey: ['reader', db, 'item', id] });
      void qc.invalidateQueries({ queryKey: ['reader', db, 'unread'] });
    },
  });
}
