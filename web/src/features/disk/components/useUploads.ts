// The upload queue: one file at a time through the resumable upload (create
// the entry when new, POST /uploads, PUT chunks from `received`, commit with
// the rev), a name that exists becoming a new version of that file.

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../../lib/errors';
import {
  commitUpload,
  createEntry,
  diskKeys,
  fetchDir,
  getEntry,
  getUpload,
  startUpload,
  uploadChunkPath,
  type CloudFile,
  type UploadState,
} from '../api/drive';
import { putChunk } from '../api/chunk';
import { chooseChunkSize, nextQueued, uploadReducer, type UploadItem } from '../upload-plan';

/** The error kept on an item: the API error, or a connection failure. */
export type UploadError = ApiError;

async function findByName(db: string, dirId: string, name: string): Promise<CloudFile | undefined> {
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page = await fetchDir(db, dirId, after);
    const hit = page.entries.find((e) => e.name === name && (e.kind === 'file' || e.kind === 'dir'));
    if (hit) return hit;
    if (!page.next) return undefined;
    after = page.next;
  }
  return undefined;
}

export function useUploads(db: string) {
  const qc = useQueryClient();
  const [items, dispatch] = useReducer(uploadReducer, []);
  const files = useRef(new Map<string, File>());
  const errors = useRef(new Map<string, ApiError>());
  const running = useRef(false);
  const seq = useRef(0);

  const add = useCallback((list: FileList | File[], dirId: string) => {
    const arr = Array.from(list);
    if (arr.length === 0) return;
    const batch = arr.map((f) => {
      const key = `u${++seq.current}`;
      files.current.set(key, f);
      return { key, name: f.name, size: f.size, dirId };
    });
    dispatch({ type: 'enqueue', items: batch });
  }, []);

  const run = useCallback(
    async (it: UploadItem) => {
      const file = files.current.get(it.key);
      if (!file) return;
      running.current = true;
      errors.current.delete(it.key);
      try {
        dispatch({ type: 'add', key: it.key });
        let fileId = it.fileId;
        if (!fileId) {
          const existing = await findByName(db, it.dirId, it.name);
          if (existing && existing.kind !== 'file') throw new ApiError(409, 'conflict', 'A folder with this name exists here.');
          fileId = existing ? existing._id : (await createEntry(db, 'file', it.name, it.dirId)).id;
        }
        let state: UploadState | null = null;
        if (it.uploadId) {
          try {
            state = await getUpload(db, it.uploadId);
          } catch (e) {
            if (!(e instanceof ApiError && (e.status === 404 || e.status === 410))) throw e;
          }
        }
        if (!state) state = await startUpload(db, { file_id: fileId, size: file.size, content_type: file.type || undefined });
        const uploadId = state.upload_id || it.uploadId!;
        let received = state.received;
        dispatch({ type: 'uploading', key: it.key, uploadId, fileId, sent: received });
        const chunk = chooseChunkSize(file.size, state.chunk_size);
        const path = uploadChunkPath(db, uploadId);
        let conflicts = 0;
        while (received < file.size) {
          const end = Math.min(received + chunk, file.size);
          const base = received;
          const ans = await putChunk(path, base, file.slice(base, end), (loaded) =>
            dispatch({ type: 'progress', key: it.key, sent: base + loaded }),
          );
          if (!ans.ok) {
            if (++conflicts > 5) throw new ApiError(409, 'conflict', 'The upload keeps changing offset.');
          }
          received = ans.received;
          dispatch({ type: 'progress', key: it.key, sent: received });
        }
        const entry = await getEntry(db, fileId);
        await commitUpload(db, uploadId, entry._rev ?? '');
        dispatch({ type: 'done', key: it.key });
        files.current.delete(it.key);
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(0, 'error', e instanceof Error ? e.message : String(e));
        errors.current.set(it.key, err);
        dispatch({ type: 'error', key: it.key, error: err.reason || err.error });
      } finally {
        running.current = false;
        void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
      }
    },
    [db, qc],
  );

  useEffect(() => {
    if (running.current) return;
    const it = nextQueued(items);
    if (it) void run(it);
  }, [items, run]);

  const retry = useCallback((key: string) => dispatch({ type: 'retry', key }), []);
  const remove = useCallback((key: string) => {
    files.current.delete(key);
    dispatch({ type: 'remove', key });
  }, []);
  const clearDone = useCallback(() => dispatch({ type: 'clearDone' }), []);
  const errorOf = useCallback((key: string) => errors.current.get(key), []);

  return { items, add, retry, remove, clearDone, errorOf };
}
