// What a query shows, for live updates (lib/live.ts): the documents or the
// klasses a notice must name to refetch it. Apart from the channel, so the
// queries of the first route import these few lines and not the socket.
// Also the writes this tab made: the notice of a write it already refetched
// for leaves those queries alone.

import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveNotice } from './live';

/**
 * What a query shows, as its meta's `live` says, for the refetch a notice causes: the documents it reads
 * (`ids`: a document's GET) or the klasses it lists (`klasses`: a _find or a counter of them); `anyWhen`, given
 * the query's data and the notices, says when notices of other things in its db refetch it too. A notice of anything else leaves
 * it alone; a query that says none of them is refetched on any change of its db, and `false` on none. A
 * catch-up (no notices, only "something changed") refetches all but `false`.
 */
export type LiveDeps =
  | false
  | {
      ids?: readonly string[];
      klasses?: readonly string[];
      anyWhen?: (data: unknown, notices: readonly LiveNotice[]) => boolean;
    };

/** liveDoc is the meta of a query reading the document id alone. */
export const liveDoc = (id: string): { live: LiveDeps } => ({ live: { ids: [id] } });
/** liveKlasses is the meta of a query listing or counting documents of these klasses alone. */
export const liveKlasses = (...klasses: string[]): { live: LiveDeps } => ({ live: { klasses } });

/** declared says whether deps name what the query shows (then notices alone keep it true: lib/live-fresh.ts). */
export function declared(deps: unknown): boolean {
  if (typeof deps !== 'object' || deps === null) return false;
  const { ids, klasses, anyWhen } = deps as Exclude<LiveDeps, false>;
  return !!(ids || klasses || anyWhen);
}

/**
 * showsChange says whether a query whose meta's `live` is deps, holding data, shows what notices tell of (null:
 * unknown changes; an empty list: nothing new).
 */
export function showsChange(deps: unknown, notices: readonly LiveNotice[] | null, data?: unknown): boolean {
  if (deps === false) return false;
  if (notices === null) return true;
  if (notices.length === 0) return false;
  if (!declared(deps)) return true;
  const { ids, klasses, anyWhen } = deps as Exclude<LiveDeps, false>;
  if (anyWhen?.(data, notices)) return true;
  return notices.some((n) => !!ids?.includes(n.id) || !!klasses?.includes(n.klass));
}

/**
 * ownWrite stands for a write this tab made, as the notice it will hear: a mutation's own refetch names
 * it through showsChange, so the queries that show other documents and klasses wait for a notice of
 * theirs (a reaction the write caused on the server comes as its own notice).
 */
export const ownWrite = (db: string, id: string, klass: string, deleted = false, rev?: string): LiveNotice => ({
  db,
  seq: 0,
  id,
  klass,
  deleted,
  ...(rev ? { rev } : {}),
});

/** How long a write's own refetch is remembered, waiting for its notice. */
const OWN_WRITE_MS = 60_000;
/** The queries refetched after each write this tab made, by `db id rev`, and when. */
const refetchedAfter = new Map<string, { at: number; queries: Set<string> }>();
const writeKey = (n: Pick<LiveNotice, 'db' | 'id' | 'rev'>) => `${n.db} ${n.id} ${n.rev ?? ''}`;

/**
 * refetchOwnWrite refetches, after the write w this tab made, the queries under the key prefixes that show
 * it, and remembers them by the revision written: when w's notice comes, it refetches only what this left out
 * (the klass's counters, a coworker's view of it elsewhere in the app). Without a revision, it only refetches.
 */
export async function refetchOwnWrite(qc: QueryClient, w: LiveNotice, keys: readonly QueryKey[]): Promise<void> {
  const now = Date.now();
  for (const [k, v] of refetchedAfter) if (now - v.at > OWN_WRITE_MS) refetchedAfter.delete(k);
  const queries = new Set<string>();
  if (w.rev) refetchedAfter.set(writeKey(w), { at: now, queries });
  const written = [w];
  await Promise.all(
    keys.map((queryKey) =>
      qc.invalidateQueries({
        queryKey,
        predicate: (q) => {
          const hit = showsChange(q.meta?.live, written, q.state.data);
          if (hit) queries.add(q.queryHash);
          return hit;
        },
      }),
    ),
  );
}

/** newsFor drops from notices those of this tab's own writes that it already refetched query for. */
export function newsFor(queryHash: string, notices: readonly LiveNotice[] | null): readonly LiveNotice[] | null {
  if (notices === null || refetchedAfter.size === 0) return notices;
  return notices.filter((n) => !(n.rev && refetchedAfter.get(writeKey(n))?.queries.has(queryHash)));
}

/** heardOwnWrites forgets the own writes these notices told of (each notice comes once). */
export function heardOwnWrites(notices: readonly LiveNotice[] | null): void {
  for (const n of notices ?? []) if (n.rev) refetchedAfter.delete(writeKey(n));
}
