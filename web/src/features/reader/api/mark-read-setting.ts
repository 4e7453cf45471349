// "Mark as read on opening" (SPEC §3 adjustment reader_mark_as_read_on_opening,
// §4: on by default): a personal preference, kept as an Adjustment in the
// user's own db like the locale, so every member chooses for themselves.

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { find, postDoc, putDoc, type Doc } from '../../../lib/couch';
import { newId } from '../../../lib/ids';

export const MARK_READ_KEY = 'reader_mark_as_read_on_opening';

interface Adjustment extends Doc {
  key: string;
  value: unknown;
}

async function findSetting(userDb: string): Promise<Adjustment | null> {
  const res = await find<Adjustment>(userDb, { selector: { klass: 'Adjustment', key: MARK_READ_KEY }, limit: 1 });
  return res.docs[0] ?? null;
}

/** readMarkReadSetting: true unless the user turned it off. */
export async function readMarkReadSetting(userDb: string): Promise<boolean> {
  const doc = await findSetting(userDb);
  return doc ? doc.value !== false : true;
}

export async function saveMarkReadSetting(userDb: string, on: boolean): Promise<void> {
  const doc = await findSetting(userDb);
  if (doc) {
    if (doc.value === on) return;
    await putDoc(userDb, { ...doc, value: on });
    return;
  }
  await postDoc(userDb, { _id: newId('adj'), klass: 'Adjustment', key: MARK_READ_KEY, label: MARK_READ_KEY, value: on });
}

export const markReadQuery = (userDb: string) =>
  queryOptions({ queryKey: ['reader', 'mark-read', userDb], queryFn: () => readMarkReadSetting(userDb), staleTime: Infinity });

export function useMarkReadSetting(userDb: string) {
  const qc = useQueryClient();
  const q = useQuery({ ...markReadQuery(userDb), enabled: !!userDb });
  const save = useMutation({
    mutationFn: (on: boolean) => saveMarkReadSetting(userDb, on),
    onMutate: (on) => qc.setQueryData(markReadQuery(userDb).queryKey, on),
    onError: () => void qc.invalidateQueries({ queryKey: markReadQuery(userDb).queryKey }),
  });
  return { on: q.data ?? true, set: (on: boolean) => save.mutate(on), error: save.error };
}
