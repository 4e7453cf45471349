import { api, enc } from '../../../lib/api';
import type { WriteResult } from '../../../lib/couch';
import type { Account } from '../../../lib/accounts';

/** POST /accounts {name, parent-account-id?}: a new Group (or a sub-group of a corp parent). */
export function createAccount(input: { name: string; parentId?: string }): Promise<WriteResult> {
  const body: Record<string, unknown> = { name: input.name.trim() };
  if (input.parentId) body['parent-account-id'] = input.parentId;
  return api.post<WriteResult>('accounts', body);
}

/** PUT /accounts/{id}?rev= {name, billing_email} (admins). */
export function updateAccount(account: Account, input: { name: string; billing_email: string }): Promise<WriteResult> {
  return api.put<WriteResult>(`accounts/${enc(account._id)}`, { name: input.name, billing_email: input.billing_email }, { rev: account._rev ?? '' });
}
