// Change history (the change stream's DocumentChange docs, id ver-…): a
// record's versions for the history panel, and the timeline's event labels
// (SPEC §4: a change is a create when the revision starts with 1-, a destroy
// when deleted, otherwise an update).

import { queryOptions } from '@tanstack/react-query';
import { find, type Doc, type Stamp } from './couch';

export interface DocumentChange extends Doc {
  item_id?: string;
  item_type?: string;
  event?: string;
  /** Every event of the change: the base one, then a module's own (close, open, comment…). */
  events?: string[];
  rev?: string;
  seq?: number;
  changed?: string[];
  whodunnit?: Stamp;
  label?: string;
}

export const TIMELINE_EVENTS = [
  'archive',
  'attach',
  'backfill_version',
  'billing-email',
  'bookmark',
  'close',
  'comment',
  'confirm',
  'create',
  'created',
  'design',
  'destroy',
  'import',
  'open',
  'status',
  'unconfirm',
  'update_payment',
  'update',
  'upsert',
] as const;

export type BaseEvent = 'created' | 'updated' | 'destroyed';

/**
 * SYSTEM_KLASSES are configuration and bookkeeping, not work: a Group's
 * settings (Adjustment), the change stream's own records. The timeline
 * leaves them out (a new Group would otherwise open on its 17 settings).
 */
export const SYSTEM_KLASSES: ReadonlySet<string> = new Set(['Adjustment', 'DocumentChange', 'Counter']);

/** INTERNAL_FIELDS are kept by the server for its own use; a change card never names them. */
const INTERNAL_FIELDS: ReadonlySet<string> = new Set([
  'klass',
  'db_name',
  'membership_id',
  'search',
  'status_history',
  'status_token',
  'approval_token',
  'gravatar_hash',
  'confirmation_sent_at',
  'status_at',
  'checklist',
  'title',
]);

/** shownFields: the changed fields worth naming to a person, in order. */
export function shownFields(changed: readonly string[] | undefined): string[] {
  return (changed ?? []).filter((f) => !INTERNAL_FIELDS.has(f) && !f.startsWith('_'));
}

/** baseEvent folds an event type into the three labels a change card shows. */
const BASE_EVENTS = new Set(['create', 'created', 'update', 'destroy']);

/** ownEvent: the most telling event of a change beyond create/update/destroy (close before status), or null. */
export function ownEvent(event: string | undefined, events: readonly string[] = []): string | null {
  const all = [...events, ...(event ? [event] : [])].filter((e) => !BASE_EVENTS.has(e));
  return all.find((e) => e !== 'status') ?? all[0] ?? null;
}

export function baseEvent(event: string | undefined): BaseEvent {
  if (event === 'create' || event === 'created') return 'created';
  if (event === 'destroy') return 'destroyed';
  return 'updated';
}

/** eventOfChange (SPEC §4): create when the revision starts with 1-, destroy when deleted, else update. */
export function eventOfChange(rev: string | undefined, deleted: boolean | undefined): 'create' | 'update' | 'destroy' {
  if (deleted) return 'destroy';
  if (rev?.startsWith('1-')) return 'create';
  return 'update';
}

export const HISTORY_LIMIT = 50;

export const historyQuery = (db: string, itemId: string) =>
  queryOptions({
    queryKey: ['history', db, itemId],
    queryFn: () =>
      find<DocumentChange>(db, {
        selector: { klass: 'DocumentChange', item_id: itemId },
        sort: [{ created_at: 'desc' }],
        limit: HISTORY_LIMIT,
      }).then((r) => r.docs ?? []),
  });
