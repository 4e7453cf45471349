import { deleteDoc, type WriteResult } from '../../../lib/couch';

/** DELETE /{db}/{id}?rev=. */
export function deleteRecord(db: string, id: string, rev: string): Promise<WriteResult> {
  return deleteDoc(db, id, rev);
}
