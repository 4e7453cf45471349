// A Group (account) as every screen sees it: its record in the accounts db,
// who administers it (SPEC §6: the db's _security admins, or the account's
// admin_roles) and the signed-in user's memberships.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, enc } from './api';
import type { Doc } from './couch';
import { membershipsQuery, isPendingMembership, accountOf, type Membership } from './memberships';
import { useSession, type Session } from './session';

export interface Account extends Doc {
  name?: string;
  billing_email?: string;
  v7_plan?: string;
  livemode?: boolean;
  admin_roles?: string[];
  'parent-account-id'?: string;
}

export interface Security {
  admins?: { names?: string[]; roles?: string[] };
  members?: { names?: string[]; roles?: string[] };
}

export const accountQuery = (id: string) =>
  queryOptions({
    queryKey: ['account', id],
    queryFn: () => api.get<Account>(`accounts/${enc(id)}`),
    // It lives in the accounts db, so the Group's notices cannot keep it true: stale after a minute, and
    // refetched when a billing change writes the Group's plan adjustment or its memberships change.
    staleTime: 60_000,
    meta: { live: { klasses: ['Adjustment', 'Membership'] } },
  });

export const securityQuery = (db: string) =>
  queryOptions({
    queryKey: ['security', db],
    queryFn: () => api.get<Security>(`${enc(db)}/_security`),
    staleTime: 60_000,
    retry: false,
    // Who may read and admin the db changes with its memberships.
    // liveKlasses(…) written out: the first route's modules stay off lib/live-deps (npm run size).
    meta: { live: { klasses: ['Membership'] } },
  });

/** isAdminOf (SPEC §6): the user is in the db's admins (by name or role) or the account's admin_roles. */
export function isAdminOf(session: Session | null, security: Security | undefined, account?: Account): boolean {
  if (!session) return false;
  if (session.isServerAdmin) return true;
  const names = security?.admins?.names ?? [];
  const roles = security?.admins?.roles ?? [];
  if (names.includes(session.userId)) return true;
  if (roles.some((r) => session.roles.includes(r))) return true;
  return (account?.admin_roles ?? []).includes(session.userId);
}

/** useIsAdmin: whether the signed-in user administers db (false while loading or on failure). */
export function useIsAdmin(db: string): { admin: boolean; loading: boolean } {
  const session = useSession();
  const sec = useQuery({ ...securityQuery(db), enabled: !!db && !!session });
  const acc = useQuery({ ...accountQuery(db), enabled: !!db && !!session });
  return { admin: isAdminOf(session, sec.data, acc.data), loading: sec.isPending && acc.isPending };
}

/** useMemberships: the signed-in user's memberships (their personal db's mirror). */
export function useMemberships() {
  const session = useSession();
  return useQuery({ ...membershipsQuery(session?.userId ?? ''), enabled: !!session });
}

/** switchable (SPEC §2): the memberships the account switcher lists — accepted ones other than the current Group. */
export function switchable(memberships: Membership[], current: string | null): Membership[] {
  return memberships.filter((m) => !isPendingMembership(m) && accountOf(m) && accountOf(m) !== current);
}

/** planOf reads a membership's plan ("free" unless told otherwise). */
export function planOf(m: Pick<Membership, 'confirmed-plan'>): string {
  return m['confirmed-plan'] || 'free';
}
