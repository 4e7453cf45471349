// Checklists for the open tickets that missed them (shared/ticket,
// checklist.go): what turning the checklist feature on offers.

import { api, enc } from '../../../lib/api';

/** The open tickets of categories with checklist lines that have no checklist. */
export function openTicketsWithoutChecklist(db: string): Promise<number> {
  return api.get<{ tickets: number }>(`${enc(db)}/_tickets/checklists`).then((r) => r.tickets ?? 0);
}

/** Gives those tickets their category's checklist; answers how many got one. */
export function addChecklistsToOpenTickets(db: string): Promise<number> {
  return api.post<{ added: number }>(`${enc(db)}/_tickets/checklists`, {}).then((r) => r.added ?? 0);
}
