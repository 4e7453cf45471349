import { api, enc } from '../../../lib/api';
import type { WriteResult } from '../../../lib/couch';

/** PUT /{user db}/_design/bookmark/_update/{true|false}/{membership_id}: bookmark or unbookmark a Group. */
export function setBookmark(userDb: string, membershipId: string, on: boolean): Promise<WriteResult> {
  return api.put<WriteResult>(`${enc(userDb)}/_design/bookmark/_update/${on ? 'true' : 'false'}/${enc(membershipId)}`, {});
}

/** PUT /{db_name}/_design/status/_update/accept/{membership_id}: accept an invitation. */
export function acceptInvite(db: string, membershipId: string): Promise<WriteResult> {
  return api.put<WriteResult>(`${enc(db)}/_design/status/_update/accept/${enc(membershipId)}`, {});
}

/** What an invitation link names before sign-in (GET /_public/invitations/{db}/{membership}). */
export interface InvitationPreview {
  group: string;
  inviter: string;
  email: string;
}

export const invitationQuery = (db: string, membershipId: string) => ({
  queryKey: ['invitation', db, membershipId] as const,
  queryFn: () => api.get<InvitationPreview>(`_public/invitations/${enc(db)}/${enc(membershipId)}`),
  retry: false,
  staleTime: 60_000,
});
