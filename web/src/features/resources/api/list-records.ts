import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { escapeRegex, findPage, type Doc } from '../../../lib/couch';
import { liveKlasses } from '../../../lib/live-deps';

export interface ListInput {
  db: string;
  klass: string;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
  searchField?: string | undefined;
  q?: string;
}

export interface ListPage {
  docs: Doc[];
  hasMore: boolean;
}

/** POST /{db}/_find for one page; one extra row tells whether another page exists. */
export async function listRecords(input: ListInput): Promise<ListPage> {
  const selector: Record<string, unknown> = { klass: input.klass };
  if (input.q && input.searchField) selector[input.searchField] = { $regex: `(?i)${escapeRegex(input.q)}` };
  return findPage<Doc>(input.db, { selector, orderBy: input.orderBy, direction: input.direction, page: input.page, perPage: input.perPage });
}

export const listRecordsQuery = (input: ListInput) =>
  queryOptions({
    queryKey: ['records', input.db, input.klass, input],
    queryFn: () => listRecords(input),
    meta: liveKlasses(input.klass),
    placeholderData: keepPreviousData,
  });
