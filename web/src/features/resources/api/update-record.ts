import { putDoc, type Doc, type WriteResult } from '../../../lib/couch';

/** PUT /{db}/{id}?rev= with the whole document (a stale rev is a 409 conflict). */
export function updateRecord(db: string, doc: Doc): Promise<WriteResult> {
  return putDoc(db, doc);
}
