// The active data store (SPEC §2: before every navigation the route's account
// id becomes the active db). Kept per tab so a reload on /disk still knows it.

import { useSyncExternalStore } from 'react';
import { KEYS, readStored, writeStored } from './storage';

let active: string | null = readStored(KEYS.activeDb, 'session');
const listeners = new Set<() => void>();

export function getActiveDb(): string | null {
  return active;
}

export function setActiveDb(db: string | null): void {
  if (db === active) return;
  active = db;
  writeStored(KEYS.activeDb, db, 'session');
  listeners.forEach((l) => l());
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useActiveDb(): string | null {
  return useSyncExternalStore(subscribe, getActiveDb, getActiveDb);
}
