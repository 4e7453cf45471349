// What a query shows, for live updates (lib/live.ts): the documents or the
// klasses a notice must name to refetch it. Apart from the channel, so the
// queries of the first route import these few lines and not the socket.

import type { LiveNotice } from './live';

/**
 * What a query shows, as its meta's `live` says, for the refetch a notice causes: the documents it reads
 * (`ids`: a document's GET) or the klasses it lists (`klasses`: a _find or a counter of them). A notice of
 * anything else leaves it alone; a query that says neither is refetched on any change of its db, and
 * `false` on none. A catch-up (no notices, only "something changed") refetches all but `false`.
 */
export type LiveDeps = false | { ids?: readonly string[]; klasses?: readonly string[] };

/** liveDoc is the meta of a query reading the document id alone. */
export const liveDoc = (id: string): { live: LiveDeps } => ({ live: { ids: [id] } });
/** liveKlasses is the meta of a query listing or counting documents of these klasses alone. */
export const liveKlasses = (...klasses: string[]): { live: LiveDeps } => ({ live: { klasses } });

/** showsChange says whether a query whose meta's `live` is deps shows what notices tell of (null: unknown changes). */
export function showsChange(deps: unknown, notices: readonly LiveNotice[] | null): boolean {
  if (deps === false) return false;
  if (notices === null || typeof deps !== 'object' || deps === null) return true;
  const { ids, klasses } = deps as { ids?: readonly string[]; klasses?: readonly string[] };
  if (!ids && !klasses) return true;
  return notices.some((n) => !!ids?.includes(n.id) || !!klasses?.includes(n.klass));
}

/**
 * ownWrite stands for a write this tab made, as the notice it will hear: a mutation's own refetch names
 * it through showsChange, so the queries that show other documents and klasses wait for a notice of
 * theirs (a reaction the write caused on the server comes as its own notice).
 */
export const ownWrite = (db: string, id: string, klass: string, deleted = false): LiveNotice => ({ db, seq: 0, id, klass, deleted });
