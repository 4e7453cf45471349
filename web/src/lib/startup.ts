// What to do once the user id is first known (SPEC §4): with no active
// account, go to the only bookmarked Group, or the only Group, else home with
// the multiple-account notice.

import { useSyncExternalStore } from 'react';
import { accountOf, isPendingMembership, type Membership } from './memberships';
import { KEYS, readStored, writeStored } from './storage';

/** Routes that never auto-navigate (SPEC §4, plus the public pages and link routes a signed-in user may open). */
export const STARTUP_EXEMPT = new Set([
  'account#new',
  'checkout',
  'icons',
  'subscription#checkout',
  'user#profile',
  'user#newsletter',
  'invite',
  'status#public',
  'estimate#public',
  'confirm#new',
  'confirm#show',
  'password#new',
  'password#show',
  'terms',
  'privacy',
  'refund',
  'disclaimer',
  'noop',
]);

/** Routes a user past the email-confirmation deadline stays on (the server answers nothing else). */
export const CONFIRM_ROUTES = new Set(['confirm#new', 'confirm#show', 'user#profile', 'terms', 'privacy', 'refund', 'disclaimer']);

export type StartupDecision = { kind: 'stay' } | { kind: 'dashboard'; accountId: string } | { kind: 'home' } | { kind: 'confirm' };

export function decideStartup(input: {
  activeDb: string | null;
  /**
   * The Group the address names (/account/{id}/…), which SPEC §2 makes the
   * active one. It is not made the tab's Group when the user may not use it
   * (the refusal page shows), yet the user chose it: stay there.
   */
  routeDb?: string | null;
  routeName: string;
  memberships: Membership[];
  /** The session is past the email-confirmation deadline (SPEC §9). */
  confirmationExpired?: boolean;
}): StartupDecision {
  if (input.confirmationExpired) return CONFIRM_ROUTES.has(input.routeName) ? { kind: 'stay' } : { kind: 'confirm' };
  if (input.activeDb || input.routeDb || STARTUP_EXEMPT.has(input.routeName)) return { kind: 'stay' };
  const accepted = input.memberships.filter((m) => !isPendingMembership(m) && accountOf(m));
  const bookmarked = accepted.filter((m) => m.bookmark === true);
  const only = bookmarked.length === 1 ? bookmarked[0] : accepted.length === 1 ? accepted[0] : undefined;
  if (only) return { kind: 'dashboard', accountId: accountOf(only) };
  return { kind: 'home' };
}

// The multiple-account flag, kept for the tab.
let multiple = readStored(KEYS.multipleAccounts, 'session') === '1';
const listeners = new Set<() => void>();

export function setMultipleAccounts(on: boolean): void {
  multiple = on;
  writeStored(KEYS.multipleAccounts, on ? '1' : null, 'session');
  listeners.forEach((l) => l());
}

export function useMultipleAccounts(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => multiple,
    () => multiple,
  );
}

/** accountInPath is the Group an address names (/account/{id}/…), or null. */
export function accountInPath(pathname: string): string | null {
  const m = /^\/account\/([^/]+)/.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}
