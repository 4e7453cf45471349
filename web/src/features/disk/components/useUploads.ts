// The upload queue: one file at a time through runUpload (upload-run.ts):
// a name that exists becomes a new version of that file, the bytes go
// through the server in chunks or straight to S3 in presigned parts as the
// server says, dropped connections are ridden out, and a retry resumes.

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../../lib/errors';
import {
  commitUpload,
  diskKeys,
  fetchDir,
  getEntry,
  getUpload,
  presignParts,
  startUpload,
  uploadChunkPath,
  type CloudFile,
} from '../api/drive';
import { putChunk, putPart } from '../api/chunk';
import { nextQueued, uploadReducer, type UploadItem } from '../upload-plan';
import { runUpload, type UploadDeps, type UploadMemo } from '../upload-run';

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

export function uploadDeps(db: string): UploadDeps {
  return {
    findByName: (dirId, name) => findByName(db, dirId, name),
    start: (body) => startUpload(db, body),
    get: (u) => getUpload(db, u),
    putChunk: (u, offset, chunk, onProgress) => putChunk(uploadChunkPath(db, u), offset, chunk, onProgress),
    presign: (u, parts) => presignParts(db, u, parts),
    putPart: (url, chunk, onProgress) => putPart(url, chunk, onProgress),
    getEntry: (id) => getEntry(db, id),
    commit: (u, rev, parts) => commitUpload(db, u, rev, parts),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}

export function useUploads(db: string) {
  const qc = useQueryClient();
  const [items, dispatch] = useReducer(uploadReducer, []);
  const files = useRef(new Map<string, File>());
  const memos = useRef(new Map<string, UploadMemo>());
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
      let memo = memos.current.get(it.key);
      if (!memo) {
        memo = { etags: new Map() };
        memos.current.set(it.key, memo);
      }
      // The last dispatch comes after running is cleared, so the effect it
      // triggers starts the next file of the queue.
      let last: Parameters<typeof dispatch>[0];
      try {
        await runUpload(uploadDeps(db), file, it.name, it.dirId, memo, {
          stage: (stage, m, sent) =>
            stage === 'add' ? dispatch({ type: 'add', key: it.key }) : dispatch({ type: 'uploading', key: it.key, uploadId: m.uploadId, fileId: m.fileId, sent }),
          progress: (sent) => dispatch({ type: 'progress', key: it.key, sent }),
        });
        last = { type: 'done', key: it.key };
        files.current.delete(it.key);
        memos.current.delete(it.key);
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(0, 'error', e instanceof Error ? e.message : String(e));
        errors.current.set(it.key, err);
        last = { type: 'error', key: it.key, error: err.reason || err.error };
      }
      running.current = false;
      dispatch(last);
      void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
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
    memos.current.delete(key);
    dispatch({ type: 'remove', key });
  }, []);
  const clearDone = useCallback(() => dispatch({ type: 'clearDone' }), []);
  const errorOf = useCallback((key: string) => errors.current.get(key), []);

  return { items, add, retry, remove, clearDone, errorOf };
}
