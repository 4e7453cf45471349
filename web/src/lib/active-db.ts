// The active data store (SPEC §2: before every navigation the route's account
// id becomes the active db). Kept per tab (sessionStorage), so two tabs can
// work in two Groups and a reload on /disk keeps its tab's Group; and the
// last Group chosen in any tab is remembered on the device (localStorage), so
// a fresh tab opened on a Group-less address (/ticket-board, /disk, /usage…)
// starts in it instead of on the dashboard or the "select a group" notice.

import { useSyncExternalStore } from 'react';
import { KEYS, readStored, writeStored } from './storage';

let active: string | null = readStored(KEYS.activeDb, 'session');
const listeners = new Set<() => void>();

export function getActiveDb(): string | null {
  return active;
}

/** setActiveDb makes db this tab's Group and, when it is one, the Group a fresh tab starts in. */
export function setActiveDb(db: string | null): void {
  if (db) writeStored(KEYS.lastGroup, db);
  if (db === active) return;
  active = db;
  writeStored(KEYS.activeDb, db, 'session');
  listeners.forEach((l) => l());
}

/** rememberedGroup is the Group last chosen in any tab of this device, or null. */
export function rememberedGroup(): string | null {
  return readStored(KEYS.lastGroup);
}

/** forgetGroup drops db from this device's memory (the user may no longer use it). */
export function forgetGroup(db: string): void {
  if (readStored(KEYS.lastGroup) === db) writeStored(KEYS.lastGroup, null);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useActiveDb(): string | null {
  return useSyncExternalStore(subscribe, getActiveDb, getActiveDb);
}
