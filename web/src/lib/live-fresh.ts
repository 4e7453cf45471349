// Queries kept true by live notices (issue 21, requests per user action).
// While the tab hears every change of a db (LiveChannel.hearingSince), a query
// that says what it shows (meta.live, lib/live-deps.ts) and was read after
// the tab began hearing stays fresh until a notice names it, up to
// KEPT_FRESH_MS: opening a screen again costs no request. Other queries, and
// every query while the socket is down, go stale after the client's usual time.

import type { Query, QueryClient } from '@tanstack/react-query';
import { declared, hearings } from './live-deps';

/**
 * How long a query the notices keep true stays fresh without one. Not forever: in the cloud a notice still
 * refused after three posts is given up (shared/live Management.Post), and this bounds what such a loss can
 * leave on a screen.
 */
export const KEPT_FRESH_MS = 5 * 60_000;

export interface Hearing {
  /** The time since which the tab has heard of every change of db, or null while it does not. */
  hearingSince(db: string): number | null;
}

/** keepFresh gives qc's queries the staleTime above while hearing runs, and returns the undo. */
export function keepFresh(qc: QueryClient, hearing: Hearing): () => void {
  hearings.set(qc, (db) => hearing.hearingSince(db) !== null);
  const before = qc.getDefaultOptions();
  const usual = before.queries?.staleTime ?? 0;
  // When the fetch that gave each query its data started: what was read before the tab heard of every change
  // may have missed one.
  const started = new Map<string, number>();
  const readAt = new Map<string, number>();
  const unsubscribe = qc.getQueryCache().subscribe((e) => {
    const h = e.query.queryHash;
    if (e.type === 'removed') {
      started.delete(h);
      readAt.delete(h);
      return;
    }
    if (e.type !== 'updated') return;
    const a = e.action;
    if (a.type === 'fetch') started.set(h, Date.now());
    else if (a.type === 'error') started.delete(h);
    else if (a.type === 'success' && !a.manual) {
      // Data a screen set by hand keeps the time of the read before it: it earns nothing by itself.
      readAt.set(h, started.get(h) ?? 0);
      started.delete(h);
    }
  });
  const kept = (q: Query): boolean => {
    const at = readAt.get(q.queryHash);
    if (at === undefined || !declared(q.meta?.live)) return false;
    return q.queryKey.some((k) => {
      if (typeof k !== 'string') return false;
      const since = hearing.hearingSince(k);
      return since !== null && at >= since;
    });
  };
  qc.setDefaultOptions({
    ...before,
    queries: {
      ...before.queries,
      staleTime: (q) => (kept(q as Query) ? KEPT_FRESH_MS : typeof usual === 'function' ? usual(q) : usual),
    },
  });
  return () => {
    hearings.delete(qc);
    unsubscribe();
    qc.setDefaultOptions(before);
  };
}
