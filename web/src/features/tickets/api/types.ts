// The ticket desk's records as the server keeps them (shared/ticket).

import type { Doc } from '../../../lib/couch';

export const STATUSES = ['open', 'block', 'doing', 'review', 'done', 'cancel'] as const;
export const PRIORITIES = ['low', 'medium', 'high'] as const;
/** Ticket kinds as stored (SPEC §4), the repair kind first: a shop reads them as repair, preventive maintenance, installation. */
export const KINDS = ['bug', 'chore', 'story'] as const;
export type Status = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];

/** The status matrix of shared/ticket/rules.go: from → where a ticket may go. */
export const TRANSITIONS: Record<Status, readonly Status[]> = {
  open: ['block', 'doing', 'done', 'cancel'],
  block: ['open', 'doing', 'cancel'],
  doing: ['open', 'block', 'review', 'done', 'cancel'],
  review: ['open', 'block', 'doing', 'done', 'cancel'],
  done: ['open'],
  cancel: ['open'],
};

export function canMove(from: string | undefined, to: Status): boolean {
  const f = (from ?? 'open') as Status;
  return f === to || (TRANSITIONS[f] ?? []).includes(to);
}

export interface Ticket extends Doc {
  number?: number;
  title?: string;
  content?: string;
  status?: Status;
  priority?: Priority;
  ticket_kind?: string;
  category_id?: string | null;
  customer_id?: string | null;
  equipment_id?: string | null;
  technical_id?: string | null;
  reviewer_id?: string | null;
  equipment_observation?: string;
  estimation?: string;
  checklist?: { done?: number; total?: number };
  status_at?: string;
  contract_id?: string | null;
  /** The public status page's secret (shared/servicedocs). */
  status_token?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Phone {
  number: string;
  description?: string;
  main?: boolean;
}

export interface Address {
  description?: string;
  zip_code?: string;
  street?: string;
  number?: string;
  neighborhood?: string;
  complement?: string;
  city?: string;
  state?: string;
  main?: boolean;
}

export interface Customer extends Doc {
  name?: string;
  email?: string;
  company_name?: string;
  notes?: string;
  phones?: Phone[];
  addresses?: Address[];
}

export interface Equipment extends Doc {
  identifier?: string;
  description?: string;
  maker?: string;
  customer_id?: string | null;
  location?: string;
}

export interface Category extends Doc {
  name?: string;
  label?: string;
  color?: string;
  active?: boolean;
  checklist?: string;
}

export interface ChecklistItem {
  text: string;
  done: boolean;
}

export interface Checklist extends Doc {
  ticket?: string;
  category_id?: string;
  payload?: ChecklistItem[];
}
