// One item with its content (SPEC §7: GET /{db}/{id} with fields content and
// content_type, to load reader item content), and the whole item for its page.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDoc } from '../../../lib/couch';
import type { ReaderItem } from './types';

export const getItem = (db: string, id: string) => getDoc<ReaderItem>(db, id);

export const itemQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['reader', db, 'item', id], queryFn: () => getItem(db, id), staleTime: 30_000 });

export const useItem = (db: string, id: string, enabled = true) => useQuery({ ...itemQuery(db, id), enabled });
