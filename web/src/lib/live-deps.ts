// What a query shows, for live updates (lib/live.ts): the documents or the
// klasses a notice must name to refetch it. Apart from the channel, so the
// queries of the first route import these few lines and not the socket.
// A notice of a revision a query already holds leaves it alone.

import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
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
      /**
       * What it shows, the change stream derives after the write (counters, the limits, the embedded store's
       * history entries): a write's own refetch would come too early, so the write's notice, sent once the
       * stream is done, refetches it.
       */
      derived?: boolean;
      /** Its data is the one document of `ids` as GET reads it (liveDoc): a save's answer may stand in for it. */
      doc?: boolean;
    };

/** liveDoc is the meta of a query reading the document id alone (its GET, as is). */
export const liveDoc = (id: string): { live: LiveDeps } => ({ live: { ids: [id], doc: true } });
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

/** What tells whether a client's tab hears the notices of a db now (lib/live-fresh.ts registers it). */
export const hearings = new WeakMap<QueryClient, (db: string) => boolean>();

/** hears says whether the notices of db reach qc's tab now: a write's notice will then refetch what shows it. */
export const hears = (qc: QueryClient, db: string): boolean => hearings.get(qc)?.(db) ?? false;

/**
 * refetchOwnWrite refetches, after the write w this tab made, the queries that say they show it: those under
 * the key prefixes given, or every query of w's db. When w's notice comes, what came back holding w's revision
 * is left alone (newsFor), so the notice refetches only what this left out (what the stream derives, queries
 * that say nothing of what they show) or what came back without it (a list read from an index that had not
 * caught up yet). A tab that does not hear w's db refetches them all now. saved, the save's answer (the
 * document as stored: lib/couch.ts RETURN_DOC), stands in for the refetch of the queries reading that document.
 */
export async function refetchOwnWrite(qc: QueryClient, w: LiveNotice, keys?: readonly QueryKey[], saved?: { _id: string }): Promise<void> {
  const written = [w];
  const notified = hears(qc, w.db);
  const stored = saved?._id === w.id ? setSaved(qc, w.db, saved) : new Set<Query>();
  const shows = (q: Query) => {
    if (stored.has(q)) return false;
    const deps = q.meta?.live;
    if (notified && (!declared(deps) || (deps as Exclude<LiveDeps, false>).derived)) return false;
    return showsChange(deps, written, q.state.data);
  };
  if (!keys) {
    await qc.invalidateQueries({ predicate: (q) => q.queryKey.includes(w.db) && shows(q) });
    return;
  }
  await Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey, predicate: shows })));
}

/**
 * setSaved puts a save's answer, the document as stored, in the queries of db that read that document alone
 * (liveDoc), and returns them: they hold what a refetch would read.
 */
function setSaved(qc: QueryClient, db: string, doc: { _id: string }): Set<Query> {
  const reads = (q: Query) => {
    const deps = q.meta?.live as Exclude<LiveDeps, false> | undefined;
    return q.queryKey.includes(db) && !!deps?.doc && deps.ids?.length === 1 && deps.ids[0] === doc._id;
  };
  const set = new Set(qc.getQueryCache().findAll({ predicate: reads }));
  for (const q of set) qc.setQueryData(q.queryKey, doc);
  return set;
}

/**
 * newsFor drops from notices those whose revision data already holds (a document, a list or a history read
 * after the write, by this tab's own refetch or by a screen opened since): refetching it would show nothing new.
 */
export function newsFor(data: unknown, notices: readonly LiveNotice[] | null): readonly LiveNotice[] | null {
  if (notices === null || data === undefined || !notices.some((n) => n.rev)) return notices;
  const text = JSON.stringify(data) ?? '';
  return notices.filter((n) => !(n.rev && text.includes(`"${n.rev}"`)));
}
