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

/**
 * COLLAPSE_WINDOW_MS: changes of one record by one author this close to
 * each other read as one (a file's upload stages and versions, a form saved
 * twice): one card, not five.
 */
export const COLLAPSE_WINDOW_MS = 5 * 60_000;

export interface RunKey {
  item: string;
  who: string;
  /** Milliseconds since the epoch (NaN when unknown: never joined). */
  at: number;
}

/**
 * collapseRuns groups changes, given newest first, into runs: a change joins
 * the run of the next newer change of the same record when the same author
 * made both within COLLAPSE_WINDOW_MS of the run's oldest change and nobody
 * else changed that record in between (other records' changes in between do
 * not matter). Runs come out newest first, each newest first.
 */
export function collapseRuns<T>(items: readonly T[], keyOf: (item: T) => RunKey): T[][] {
  const runs: T[][] = [];
  const open = new Map<string, { run: T[]; who: string; oldest: number }>();
  for (const item of items) {
    const k = keyOf(item);
    const o = open.get(k.item);
    if (o && o.who === k.who && !Number.isNaN(k.at) && o.oldest - k.at <= COLLAPSE_WINDOW_MS) {
      o.run.push(item);
      o.oldest = k.at;
      continue;
    }
    const run = [item];
    runs.push(run);
    open.set(k.item, { run, who: k.who, oldest: k.at });
  }
  return runs;
}

/** runEvent: the base event of a run, newest first (deleted at the end, created at the start, else updated). */
export function runEvent(events: readonly string[]): string {
  const newest = events[0] ?? 'update';
  if (baseEvent(newest) === 'destroyed') return newest;
  const oldest = events[events.length - 1] ?? newest;
  return baseEvent(oldest) === 'created' ? oldest : 'update';
}

/** union keeps each value once, in the order first seen. */
export function union(lists: ReadonlyArray<readonly string[]>): string[] {
  const out: string[] = [];
  for (const l of lists) for (const v of l) if (!out.includes(v)) out.push(v);
  return out;
}

/** ChangeEntry is one change card: one change, or a run of them collapsed. */
export interface ChangeEntry {
  key: string;
  itemId: string;
  itemType: string;
  /** The base event (create, update, destroy) of the change or run. */
  event: string;
  /** Every event of the change or run (the base ones and a module's own). */
  events: string[];
  label: string;
  who: Stamp | null;
  at: string | null;
  /** The changed fields' codes (a card names only the labelled ones). */
  changed: string[];
  /** How many changes the card stands for. */
  count: number;
}

/** entryOfVersion reads a DocumentChange as one change card. */
export function entryOfVersion(v: DocumentChange, key = v._id): ChangeEntry {
  const event = v.event ?? 'update';
  return {
    key,
    itemId: v.item_id ?? '',
    itemType: v.item_type ?? '',
    event,
    events: union([[event], Array.isArray(v.events) ? v.events : []]),
    label: v.label ?? '',
    who: v.whodunnit ?? null,
    at: v.created_at ?? null,
    changed: Array.isArray(v.changed) ? v.changed : [],
    count: 1,
  };
}

/** collapseEntries folds runs (collapseRuns) of change cards, given newest first, into one card each. */
export function collapseEntries(entries: readonly ChangeEntry[]): ChangeEntry[] {
  const runs = collapseRuns(entries, (e) => ({ item: e.itemId, who: e.who?._id ?? e.who?.label ?? '', at: e.at ? Date.parse(e.at) : Number.NaN }));
  return runs.map((run) => {
    const newest = run[0]!;
    if (run.length === 1) return newest;
    const event = runEvent(run.map((e) => e.event));
    return {
      ...newest,
      label: newest.label || run.find((e) => e.label)?.label || '',
      event,
      events: union(run.map((e) => e.events)),
      // A record made in the run is new: its fields are not "changes".
      changed: baseEvent(event) === 'updated' ? union(run.filter((e) => baseEvent(e.event) === 'updated').map((e) => e.changed)) : [],
      count: run.reduce((n, e) => n + e.count, 0),
    };
  });
}

const BASE_EVENTS = new Set(['create', 'created', 'update', 'destroy']);

/** ownEvent: the most telling event of a change beyond create/update/destroy (close before status), or null. */
export function ownEvent(event: string | undefined, events: readonly string[] = []): string | null {
  const all = [...events, ...(event ? [event] : [])].filter((e) => !BASE_EVENTS.has(e));
  return all.find((e) => e !== 'status') ?? all[0] ?? null;
}

/** baseEvent folds an event type into the three labels a change card shows. */
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
    // A record's entries change with the record alone. The embedded store's stream writes them after the
    // write (DynamoDB with it): each is in place when the write's notice comes.
    meta: { live: { ids: [itemId], derived: true } },
  });
