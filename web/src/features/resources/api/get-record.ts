import { queryOptions } from '@tanstack/react-query';
import { getDoc, type Doc } from '../../../lib/couch';
import { liveDoc } from '../../../lib/live-deps';

/** GET /{db}/{id}. */
export const recordQuery = (db: string, id: string) =>
  queryOptions({
    queryKey: ['record', db, id],
    queryFn: () => getDoc<Doc>(db, id),
    meta: liveDoc(id),
  });
