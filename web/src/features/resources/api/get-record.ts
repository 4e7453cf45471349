import { queryOptions } from '@tanstack/react-query';
import { getDoc, type Doc } from '../../../lib/couch';

/** GET /{db}/{id}. */
export const recordQuery = (db: string, id: string) =>
  queryOptions({
    queryKey: ['record', db, id],
    queryFn: () => getDoc<Doc>(db, id),
  });
