// "Open entries": the wiki pages this tab has open, as tabs on /wiki and the
// page screens, kept in sessionStorage (one list per Group).

import { useCallback, useSyncExternalStore } from 'react';
import { readStored, writeStored } from '../../lib/storage';

export interface OpenEntry {
  id: string;
  title: string;
}

export const OPEN_ENTRIES_KEY = 'oficina.wiki.open';
export const MAX_OPEN = 12;

const key = (db: string) => `${OPEN_ENTRIES_KEY}.${db}`;

/** parseEntries reads a stored list, dropping anything malformed. */
export function parseEntries(raw: string | null): OpenEntry[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    return v.filter(
      (e): e is OpenEntry => !!e && typeof e === 'object' && typeof (e as OpenEntry).id === 'string' && typeof (e as OpenEntry).title === 'string',
    );
  } catch {
    return [];
  }
}

/** addEntry opens (or retitles) a page, keeping its place; the oldest go past MAX_OPEN. */
export function addEntry(list: OpenEntry[], entry: OpenEntry): OpenEntry[] {
  const i = list.findIndex((e) => e.id === entry.id);
  if (i >= 0) {
    if (list[i]!.title === entry.title) return list;
    const next = list.slice();
    next[i] = entry;
    return next;
  }
  const next = [...list, entry];
  return next.length > MAX_OPEN ? next.slice(next.length - MAX_OPEN) : next;
}

export function removeEntry(list: OpenEntry[], id: string): OpenEntry[] {
  return list.filter((e) => e.id !== id);
}

export function readEntries(db: string): OpenEntry[] {
  return parseEntries(readStored(key(db), 'session'));
}

const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; list: OpenEntry[] }>();

function snapshot(db: string): OpenEntry[] {
  const raw = readStored(key(db), 'session');
  const c = cache.get(db);
  if (c && c.raw === raw) return c.list;
  const list = parseEntries(raw);
  cache.set(db, { raw, list });
  return list;
}

export function writeEntries(db: string, list: OpenEntry[]): void {
  writeStored(key(db), list.length ? JSON.stringify(list) : null, 'session');
  listeners.forEach((l) => l());
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** useOpenEntries: the open pages of a Group with open/close. */
export function useOpenEntries(db: string) {
  const list = useSyncExternalStore(subscribe, () => snapshot(db), () => snapshot(db));
  const open = useCallback((e: OpenEntry) => writeEntries(db, addEntry(snapshot(db), e)), [db]);
  const close = useCallback((id: string) => writeEntries(db, removeEntry(snapshot(db), id)), [db]);
  return { list, open, close };
}
