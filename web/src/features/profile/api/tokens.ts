import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { find, type Doc, type WriteResult } from '../../../lib/couch';

export const TOKEN_PERMISSIONS = ['read', 'read-write'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

export interface UserToken extends Doc {
  description?: string;
  permissions?: string;
  dbs?: string[];
  active?: boolean;
}

/** POST /{user db}/_find: the active tokens, newest first (never the secret). */
export const tokensQuery = (userDb: string) =>
  queryOptions({
    queryKey: ['tokens', userDb],
    queryFn: () =>
      find<UserToken>(userDb, { selector: { klass: 'UserToken', active: true }, sort: [{ created_at: 'desc' }] }).then((r) => r.docs ?? []),
  });

export interface CreatedToken extends WriteResult {
  /** The secret: shown this once. */
  token: string;
}

export function createToken(
  userDb: string,
  input: { description: string; permissions: TokenPermission; dbs?: string[] },
): Promise<CreatedToken> {
  const body: Record<string, unknown> = { description: input.description, permissions: input.permissions };
  if (input.dbs && input.dbs.length > 0) body.dbs = input.dbs;
  return api.post<CreatedToken>(`${enc(userDb)}/_design/token/_update/create`, body);
}

export function revokeToken(userDb: string, tokenId: string): Promise<WriteResult> {
  return api.put<WriteResult>(`${enc(userDb)}/_design/token/_update/revoke/${enc(tokenId)}`, {});
}
