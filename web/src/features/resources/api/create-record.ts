import { postDoc, type Doc, type WriteResult } from '../../../lib/couch';
import { newId } from '../../../lib/ids';

/** POST /{db} with a client-generated id of the set's prefix. */
export function createRecord(db: string, prefix: string, klass: string, values: Record<string, unknown>): Promise<WriteResult> {
  const doc: Doc = { ...values, _id: newId(prefix), klass };
  return postDoc(db, doc);
}
