// One file's upload, free of React so it is tested with plain doubles:
// find whether the name exists (a new version then), start the upload, and
// send the bytes the way the server says:
//   - mode "server" (the filesystem store): chunks of at least 64 KB PUT to
//     the server from the offset it has; after a dropped connection the
//     runner asks the server how much arrived and goes on from there;
//   - mode "presigned" (S3): parts PUT straight to presigned URLs, the ETag
//     of each kept, so a retry sends only the parts not acknowledged;
// then commit with the file's revision.

import { ApiError } from '../../lib/errors';
import type { CloudFile, PresignedPart, UploadState } from './api/drive';
import type { ChunkAnswer } from './api/chunk';
import { chooseChunkSize } from './upload-plan';

export interface UploadDeps {
  findByName: (dirId: string, name: string) => Promise<CloudFile | undefined>;
  start: (body: { file_id?: string; dir_id?: string; name?: string; size: number; content_type?: string }) => Promise<UploadState>;
  get: (uploadId: string) => Promise<UploadState>;
  putChunk: (uploadId: string, offset: number, chunk: Blob, onProgress: (loaded: number) => void) => Promise<ChunkAnswer>;
  presign: (uploadId: string, parts: number[]) => Promise<PresignedPart[]>;
  putPart: (url: string, chunk: Blob, onProgress: (loaded: number) => void) => Promise<string>;
  getEntry: (id: string) => Promise<CloudFile>;
  commit: (uploadId: string, rev: string, parts?: Array<{ number: number; etag: string }>) => Promise<{ id: string }>;
  sleep: (ms: number) => Promise<void>;
}

/** What survives a failed attempt, so a retry resumes instead of starting over. */
export interface UploadMemo {
  fileId?: string;
  uploadId?: string;
  /** Presigned parts S3 acknowledged: number → ETag. */
  etags: Map<number, string>;
}

export interface UploadEvents {
  stage: (stage: 'add' | 'uploading', memo: UploadMemo, sent: number) => void;
  progress: (sent: number) => void;
}

/** Consecutive dropped connections a runner rides out before it gives up. */
export const MAX_DROPS = 6;
/** How many presigned part URLs are asked for at a time (they last an hour). */
export const PART_BATCH = 10;

const isDrop = (e: unknown) => e instanceof ApiError && e.status === 0;
const backoff = (n: number) => Math.min(500 * 2 ** n, 8000);

export async function runUpload(deps: UploadDeps, file: Blob, name: string, dirId: string, memo: UploadMemo, on: UploadEvents): Promise<{ id: string }> {
  on.stage('add', memo, 0);
  let state: UploadState | null = null;
  if (memo.uploadId) {
    try {
      state = await deps.get(memo.uploadId);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      memo.uploadId = undefined;
      memo.etags.clear();
    }
  }
  if (!state) {
    if (!memo.fileId) {
      const existing = await deps.findByName(dirId, name);
      if (existing && existing.kind !== 'file') throw new ApiError(409, 'conflict', 'A folder with this name exists here.');
      memo.fileId = existing?._id;
    }
    const target = memo.fileId ? { file_id: memo.fileId } : { dir_id: dirId, name };
    state = await deps.start({ ...target, size: file.size, content_type: file.type || undefined });
    memo.uploadId = state.upload_id;
  }
  const uploadId = memo.uploadId!;
  const rev = async () => (memo.fileId ? ((await deps.getEntry(memo.fileId))._rev ?? '') : '');

  if (state.mode === 'presigned') {
    const partSize = state.part_size ?? 0;
    const count = state.parts ?? 0;
    const sizeOf = (n: number) => Math.min(partSize, file.size - (n - 1) * partSize);
    const acked = () => [...memo.etags.keys()].reduce((s, n) => s + sizeOf(n), 0);
    on.stage('uploading', memo, acked());
    let drops = 0;
    for (;;) {
      const todo = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !memo.etags.has(n));
      if (todo.length === 0) break;
      try {
        const urls = await deps.presign(uploadId, todo.slice(0, PART_BATCH));
        for (const { number, url } of urls) {
          const base = acked();
          const from = (number - 1) * partSize;
          const etag = await deps.putPart(url, file.slice(from, from + sizeOf(number)), (loaded) => on.progress(base + loaded));
          memo.etags.set(number, etag);
          on.progress(acked());
          drops = 0;
        }
      } catch (e) {
        if (!isDrop(e) || ++drops > MAX_DROPS) throw e;
        await deps.sleep(backoff(drops));
      }
    }
    const parts = [...memo.etags.entries()].sort((a, b) => a[0] - b[0]).map(([number, etag]) => ({ number, etag }));
    return deps.commit(uploadId, await rev(), parts);
  }

  let received = state.received ?? 0;
  on.stage('uploading', memo, received);
  const chunk = chooseChunkSize(file.size, state.chunk_size ?? 65536);
  let drops = 0;
  let conflicts = 0;
  while (received < file.size) {
    const base = received;
    const end = Math.min(base + chunk, file.size);
    try {
      const ans = await deps.putChunk(uploadId, base, file.slice(base, end), (loaded) => on.progress(base + loaded));
      if (!ans.ok && ++conflicts > 5) throw new ApiError(409, 'conflict', 'The upload keeps changing offset.');
      received = ans.received;
      drops = 0;
    } catch (e) {
      // A dropped connection: the server kept what arrived; ask it where to go on from.
      if (!isDrop(e) || ++drops > MAX_DROPS) throw e;
      await deps.sleep(backoff(drops));
      try {
        received = (await deps.get(uploadId)).received ?? received;
      } catch (again) {
        if (!isDrop(again)) throw again;
      }
    }
    on.progress(received);
  }
  return deps.commit(uploadId, await rev());
}
