// A Group's memberships (SPEC §2 "Membership detail", §7): list, read,
// invite, update flags and remove, in the Group's own db.

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { deleteDoc, find, getDoc, putDoc, type WriteResult } from '../../../lib/couch';
import type { Membership } from '../../../lib/memberships';

export interface MembershipList {
  docs: Membership[];
  hasMore: boolean;
}

export const membershipsListQuery = (db: string, opts: { page: number; perPage: number; orderBy: string; direction: 'asc' | 'desc' }) =>
  queryOptions({
    queryKey: ['group-memberships', db, opts],
    queryFn: async (): Promise<MembershipList> => {
      const res = await find<Membership>(db, {
        selector: { klass: 'Membership' },
        sort: [{ [opts.orderBy]: opts.direction }],
        limit: opts.perPage + 1,
        skip: (opts.page - 1) * opts.perPage,
      });
      const docs = res.docs ?? [];
      return { docs: docs.slice(0, opts.perPage), hasMore: docs.length > opts.perPage };
    },
    placeholderData: keepPreviousData,
  });

/** An address the app no longer mails: SES reported a hard bounce or a spam complaint. */
export interface MailSuppression {
  address: string;
  reason: 'bounce' | 'complaint';
  detail?: string;
  kind?: string;
  at: string;
}

/** The Group's memberships whose address is suppressed, by membership id (GET /api/{db}/_mail/suppressed). */
export const mailSuppressedQuery = (db: string) =>
  queryOptions({
    queryKey: ['mail-suppressed', db],
    queryFn: () => api.get<{ memberships?: Record<string, MailSuppression> }>(`${enc(db)}/_mail/suppressed`).then((r) => r.memberships ?? {}),
    staleTime: 60_000,
  });

export const membershipQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['group-membership', db, id], queryFn: () => getDoc<Membership>(db, id), retry: false });

/** Membership by user_id, limit 1 (SPEC §7, §9): users#show and "is this my membership". */
export const membershipOfUserQuery = (db: string, userId: string) =>
  queryOptions({
    queryKey: ['group-membership-of', db, userId],
    queryFn: () => find<Membership>(db, { selector: { klass: 'Membership', user_id: userId }, limit: 1 }).then((r) => r.docs?.[0] ?? null),
    retry: false,
  });

export function inviteMember(db: string, input: { email: string; editor: boolean; report_view: boolean }): Promise<WriteResult> {
  // The server names the membership (mem-…) and fills status, db_name and name.
  return api.post<WriteResult>(enc(db), { klass: 'Membership', email: input.email.trim(), editor: input.editor, report_view: input.report_view });
}

export function updateMembership(db: string, m: Membership, flags: { editor: boolean; report_view: boolean }): Promise<WriteResult> {
  return putDoc(db, { ...m, editor: flags.editor, report_view: flags.report_view });
}

export function removeMembership(db: string, m: Membership): Promise<WriteResult> {
  return deleteDoc(db, m._id, m._rev ?? '');
}
