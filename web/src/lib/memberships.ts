// The signed-in user's memberships, read from their personal db where the
// server mirrors them (SPEC §4: rebuilt once the user id is known).

import { queryOptions } from '@tanstack/react-query';
import { find, type Doc } from './couch';

export interface Membership extends Doc {
  db_name?: string;
  name?: string;
  email?: string;
  status?: 'pending' | 'accepted';
  bookmark?: boolean;
  editor?: boolean;
  admin?: boolean;
  report_view?: boolean;
  user_id?: string | null;
  membership_id?: string;
  'confirmed-plan'?: string;
}

export function isPendingMembership(m: Membership): boolean {
  return m.status === 'pending' || !m.user_id;
}

/** accountOf is the Group id (and db name) a membership opens. */
export function accountOf(m: Membership): string {
  return m.db_name ?? '';
}

export function fetchMemberships(userDb: string): Promise<Membership[]> {
  return find<Membership>(userDb, {
    selector: { klass: 'Membership' },
    sort: [{ created_at: 'asc' }],
    limit: 500,
  }).then((r) => r.docs ?? []);
}

export const membershipsQuery = (userDb: string) =>
  queryOptions({
    queryKey: ['memberships', userDb],
    queryFn: () => fetchMemberships(userDb),
    staleTime: 60_000,
  });
