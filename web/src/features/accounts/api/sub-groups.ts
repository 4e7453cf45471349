// Sub-groups (SPEC §2 groups#index): the Groups of the user's memberships
// whose account record names this Group as its parent.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { Account } from '../../../lib/accounts';
import { accountOf, fetchMemberships, isPendingMembership } from '../../../lib/memberships';

export async function fetchSubGroups(userDb: string, parentId: string): Promise<Account[]> {
  const memberships = (await fetchMemberships(userDb)).filter((m) => !isPendingMembership(m) && accountOf(m) && accountOf(m) !== parentId);
  const accounts = await Promise.all(
    memberships.map((m) => api.get<Account>(`accounts/${enc(accountOf(m))}`, { fields: '_id,name,parent-account-id,v7_plan,created_at' }).catch(() => null)),
  );
  return accounts.filter((a): a is Account => !!a && a['parent-account-id'] === parentId);
}

export const subGroupsQuery = (userDb: string, parentId: string) =>
  queryOptions({ queryKey: ['sub-groups', userDb, parentId], queryFn: () => fetchSubGroups(userDb, parentId), staleTime: 60_000 });
