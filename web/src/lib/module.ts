// The active module (SPEC §1, §4, §6): a saved choice, else the host name,
// else ticket; and which modules the switcher offers.

import { useSyncExternalStore } from 'react';
import { KEYS, readStored, writeStored } from './storage';

export const MODULES = ['ticket', 'organize3', 'exoreader', 'textnotes', 'rdisk'] as const;
export type AppModule = (typeof MODULES)[number];

export function isModule(v: unknown): v is AppModule {
  return typeof v === 'string' && (MODULES as readonly string[]).includes(v);
}

/** moduleFromHost: organize → organize3, exoreader, remote diskette / rdisk → rdisk. */
export function moduleFromHost(host: string): AppModule | null {
  const h = host.toLowerCase();
  if (h.includes('organize')) return 'organize3';
  if (h.includes('exoreader')) return 'exoreader';
  if (/remote[-_.\s]?diskette|rdisk/.test(h)) return 'rdisk';
  if (h.includes('textnotes')) return 'textnotes';
  return null;
}

export function resolveModule(saved: string | null, host: string): AppModule {
  if (isModule(saved)) return saved;
  return moduleFromHost(host) ?? 'ticket';
}

/** Group flags that enable the optional modules (account adjustments). */
export interface ModuleFlags {
  textnotes?: boolean;
  organize3?: boolean;
  exoreader?: boolean;
  rdisk?: boolean;
}

/**
 * availableModules (SPEC §6): ticket and rdisk always; textnotes, organize3
 * and exoreader when the host matches or the Group enables them.
 */
export function availableModules(host: string, flags: ModuleFlags): AppModule[] {
  const fromHost = moduleFromHost(host);
  return MODULES.filter((m) => {
    if (m === 'ticket' || m === 'rdisk') return true;
    return fromHost === m || flags[m] === true;
  });
}

const listeners = new Set<() => void>();
let current: AppModule = resolveModule(readStored(KEYS.module), typeof location === 'undefined' ? '' : location.hostname);

export function getModule(): AppModule {
  return current;
}

export function setModule(m: AppModule): void {
  current = m;
  writeStored(KEYS.module, m);
  listeners.forEach((l) => l());
}

export function useModule(): AppModule {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getModule,
    getModule,
  );
}
