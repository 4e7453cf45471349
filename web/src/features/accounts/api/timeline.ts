// The dashboard's recent-changes timeline (SPEC §7): the last 20 rows of
// GET /{db}/_changes?include_docs=true&descending=true, newest first — one
// read, which goes out in the dashboard's batch (it used to wait for
// GET /{db}'s update_seq to ask since=update_seq−20). DocumentChange docs
// (the change stream's versions) are the cards; without any, each changed
// document is a card of its own.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ChangesResponse, Doc } from '../../../lib/couch';
import { collapseEntries, entryOfVersion, eventOfChange, SYSTEM_KLASSES, type ChangeEntry, type DocumentChange } from '../../../lib/history';

export const TIMELINE_WINDOW = 20;

export type ChangeCard = ChangeEntry;

const seqNumber = (s: number | string): number => (typeof s === 'number' ? s : Number.parseInt(String(s), 10) || 0);

function labelOf(doc: Doc | undefined): string {
  if (!doc) return '';
  for (const k of ['label', 'title', 'name', 'description', 'email', 'key', 'identifier']) {
    const v = doc[k];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return '';
}

/**
 * toCards turns a _changes answer into timeline cards, newest first;
 * consecutive changes of one record by one author within minutes are one
 * card (collapseEntries).
 */
export function toCards(res: ChangesResponse): ChangeCard[] {
  const rows = [...(res.results ?? [])].sort((a, b) => seqNumber(b.seq) - seqNumber(a.seq));
  const versions = rows.filter((r) => (r.doc as DocumentChange | undefined)?.klass === 'DocumentChange' && !r.deleted);
  if (versions.length > 0) {
    return collapseEntries(
      versions
        .filter((r) => !SYSTEM_KLASSES.has(String((r.doc as DocumentChange).item_type ?? '')))
        .map((r) => entryOfVersion(r.doc as DocumentChange, `${r.id}-${r.seq}`)),
    );
  }
  return collapseEntries(
    rows
      .filter((r) => !r.id.startsWith('_design/') && !SYSTEM_KLASSES.has(String(r.doc?.klass ?? '')))
      .map((r): ChangeCard => {
        const event = eventOfChange(r.changes?.[0]?.rev ?? r.doc?._rev, r.deleted);
        return {
          key: `${r.id}-${r.seq}`,
          itemId: r.id,
          itemType: String(r.doc?.klass ?? ''),
          event,
          events: [event],
          label: labelOf(r.doc),
          who: r.doc?.updated_by ?? r.doc?.created_by ?? null,
          at: r.doc?.updated_at ?? r.doc?.created_at ?? null,
          changed: [],
          count: 1,
        };
      }),
  );
}

export async function fetchTimeline(db: string): Promise<ChangeCard[]> {
  const res = await api.get<ChangesResponse>(`${enc(db)}/_changes`, { include_docs: true, descending: true, limit: TIMELINE_WINDOW });
  return toCards(res);
}

export const timelineQuery = (db: string) =>
  queryOptions({ queryKey: ['timeline', db], queryFn: () => fetchTimeline(db), staleTime: 10_000 });
