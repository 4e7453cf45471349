// Mapping rules: the index (in the order they run), one rule, and the
// server's preview of a draft over the last imported records of its target.

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { findPage, escapeRegex, getDoc } from '../../../lib/couch';
import { SCOPE, type Mapping } from './types';

export interface MappingListInput {
  db: string;
  q: string;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export function mappingSelector(q: string): Record<string, unknown> {
  const text = q.trim();
  return text ? { klass: 'Mapping', $or: [{ description: { $regex: `(?i)${escapeRegex(text)}` } }, { text_to_match: { $regex: `(?i)${escapeRegex(text)}` } }] } : { klass: 'Mapping' };
}

export const mappingsQuery = (input: MappingListInput) =>
  queryOptions({
    queryKey: [SCOPE, input.db, 'mappings', input.q, input.orderBy, input.direction, input.page, input.perPage],
    queryFn: async () => {
      return findPage<Mapping>(input.db, { selector: mappingSelector(input.q), orderBy: input.orderBy, direction: input.direction, page: input.page, perPage: input.perPage });
    },
    placeholderData: keepPreviousData,
  });

export const mappingQuery = (db: string, id: string) =>
  queryOptions({ queryKey: [SCOPE, db, 'mapping', id], queryFn: () => getDoc<Mapping>(db, id), retry: false });

export interface PreviewRow {
  id: string;
  klass: string;
  description: string;
  third_party: string;
  categories: string[];
  matched: boolean;
  before: string;
  after: string;
}

export const PREVIEW_LIMIT = 20;

/** The fields of a draft the preview reads. */
export const DRAFT_FIELDS = ['target', 'field_to_watch', 'kind_of_watch', 'text_to_match', 'kind_of_change', 'field_to_change', 'text_to_change'] as const;

export function draftOf(m: Partial<Mapping>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of DRAFT_FIELDS) {
    const v = m[f];
    if (typeof v === 'string') out[f] = v;
  }
  return out;
}

export const previewQuery = (db: string, draft: Record<string, string>) =>
  queryOptions({
    queryKey: [SCOPE, db, 'preview', draft],
    queryFn: () => api.post<{ rows?: PreviewRow[] }>(`${enc(db)}/_finance/mappings/preview`, { mapping: draft, limit: PREVIEW_LIMIT }).then((r) => r.rows ?? []),
    retry: false,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
