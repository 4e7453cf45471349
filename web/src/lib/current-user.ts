// The signed-in user's document (GET /_users/{id}), shared by the navbar and
// the profile screens through one cache entry.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, enc } from './api';
import type { Doc } from './couch';
import { useSession } from './session';

export interface UserDoc extends Doc {
  fullname?: string;
  label?: string;
  short_name?: string;
  email?: string;
  unconfirmed_email?: string | null;
  confirmed_at?: string | null;
  confirmation_sent_at?: string | null;
  newsletter?: boolean;
  locale?: string;
  gravatar_hash?: string;
  roles?: string[];
}

export const userQuery = (userId: string) =>
  queryOptions({
    queryKey: ['user', userId],
    queryFn: () => api.get<UserDoc>(`_users/${enc(userId)}`),
    staleTime: 60_000,
  });

export function useCurrentUser() {
  const session = useSession();
  return useQuery({ ...userQuery(session?.userId ?? ''), enabled: !!session });
}

/** isEmailConfirmed (SPEC §4): confirmed_at set and no pending new address. */
export function isEmailConfirmed(u: UserDoc | undefined | null): boolean {
  return !!u?.confirmed_at && !u.unconfirmed_email;
}
