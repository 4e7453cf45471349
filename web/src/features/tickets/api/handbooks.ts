// The wiki's handbooks that belong to a ticket category, read through the
// wiki's HTTP API (shared/wiki's search with a category and no words: every
// page of that category, titles A→Z, the category matched ignoring case).
// The desk calls the API itself instead of importing features/wiki: features
// never import each other, and the route is the contract between them.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';

export interface HandbookRef {
  id: string;
  title: string;
  snippet?: string;
}

export const HANDBOOKS_SHOWN = 10;

/** handbooksQuery: the handbooks filed under a category name (none for a blank name). */
export const handbooksQuery = (db: string, category: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'handbooks', category.trim().toLowerCase()],
    queryFn: async (): Promise<{ total: number; rows: HandbookRef[] }> => {
      const r = await api.get<{ total: number; rows: Array<{ id: string; title: string }> }>(`${enc(db)}/_wiki/search`, {
        category: category.trim(),
        limit: HANDBOOKS_SHOWN,
      });
      return { total: r.total, rows: r.rows.map((x) => ({ id: x.id, title: x.title })) };
    },
    enabled: !!db && category.trim() !== '',
    staleTime: 30_000,
  });
