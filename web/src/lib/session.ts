// The session (SPEC §4, §7): GET /_session at start and whenever asked,
// DELETE /_session to log out. Signed out reads as null.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './api';
import { ApiError } from './errors';
import { normalizeLocale, type AppLocale } from './i18n';

export interface UserCtx {
  name: string | null;
  roles: string[];
  locale?: string | null;
}

export interface SessionResponse {
  ok: boolean;
  userCtx: UserCtx;
  /** When an unconfirmed login address must be confirmed by (null once confirmed). */
  confirmation_deadline?: string | null;
  /** The deadline has passed: the server answers only the session, the user record and the confirmation. */
  confirmation_expired?: boolean;
  info?: Record<string, unknown>;
}

export interface Session {
  /** The user's id (usr-…), which is also the personal db's name. */
  userId: string;
  roles: string[];
  locale: AppLocale | null;
  /** Roles naming Group dbs (acc-…). */
  accountRoles: string[];
  isServerAdmin: boolean;
  /** Past the email-confirmation deadline (SPEC §9): only the confirm screen works until confirmed. */
  confirmationExpired?: boolean;
}

/** toSession reads a userCtx; a missing name means signed out. */
export function toSession(ctx: UserCtx | null | undefined, confirmationExpired = false): Session | null {
  if (!ctx || !ctx.name) return null;
  const roles = Array.isArray(ctx.roles) ? ctx.roles : [];
  const userId = ctx.name.startsWith('usr-') ? ctx.name : (roles.find((r) => r.startsWith('usr-')) ?? ctx.name);
  return {
    userId,
    roles,
    locale: normalizeLocale(ctx.locale),
    accountRoles: roles.filter((r) => r.startsWith('acc-')),
    isServerAdmin: roles.includes('_admin'),
    confirmationExpired,
  };
}

/** mayUse: the session reaches db (a Group role, the personal db, or a server admin). */
export function mayUse(s: Session, db: string): boolean {
  return s.isServerAdmin || db === s.userId || s.roles.includes(db);
}

export async function fetchSession(): Promise<Session | null> {
  try {
    const res = await request<SessionResponse>('_session', { noSessionCheck: true });
    return toSession(res?.userCtx, res?.confirmation_expired === true);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export const SESSION_KEY = ['session'] as const;

export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: fetchSession,
  staleTime: 5 * 60_000,
  retry: false,
});

/** useSession gives the signed-in user, or null; a failed fetch reads as signed out. */
export function useSession(): Session | null {
  const { data } = useQuery(sessionQuery);
  return data ?? null;
}

export function logout(): Promise<unknown> {
  return request('_session', { method: 'DELETE', noSessionCheck: true });
}
