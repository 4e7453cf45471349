// Safe wrappers around Web Storage: private mode, quotas and disabled storage
// must never break the app, so every failure reads as "nothing stored".

export const KEYS = {
  theme: 'oficina.theme',
  locale: 'oficina.locale',
  module: 'oficina.module',
  token: 'oficina.token',
  activeDb: 'oficina.activeDb',
  lastGroup: 'oficina.lastGroup',
  multipleAccounts: 'oficina.multipleAccounts',
} as const;

type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStored(key: string, which: Area = 'local'): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null, which: Area = 'local'): void {
  try {
    const s = area(which);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // storage full or disabled: the preference simply is not kept
  }
}
