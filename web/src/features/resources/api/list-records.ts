import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { find, type Doc } from '../../../lib/couch';

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

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** POST /{db}/_find for one page; one extra row tells whether another page exists. */
export async function listRecords(input: ListInput): Promise<ListPage> {
  const selector: Record<string, unknown> = { klass: input.klass };
  if (input.q && input.searchField) selector[input.searchField] = { $regex: `(?i)${escapeRegex(input.q)}` };
  const res = await find<Doc>(input.db, {
    selector,
    sort: [{ [input.orderBy]: input.direction }],
    limit: input.perPage + 1,
    skip: (input.page - 1) * input.perPage,
  });
  const docs = res.docs ?? [];
  return { docs: docs.slice(0, input.perPage), hasMore: docs.length > input.perPage };
}

export const listRecordsQuery = (input: ListInput) =>
  queryOptions({
    queryKey: ['records', input.db, input.klass, input],
    queryFn: () => listRecords(input),
    placeholderData: keepPreviousData,
  });
