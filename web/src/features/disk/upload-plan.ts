// The pure pieces of the chunked upload: which byte ranges remain (given the
// size, the chunk size and what the server says it received) and the upload
// queue's stages (SPEC §4 upload_stage: queue, add, uploading, done, error).

export interface ChunkRange {
  offset: number;
  end: number; // exclusive
}

/**
 * planChunks lists the ranges still to send, from `received` (clamped to
 * [0, size]) in steps of chunkSize. A non-positive chunk size is an error;
 * an empty file has no chunks.
 */
export function planChunks(size: number, chunkSize: number, received = 0): ChunkRange[] {
  if (!(chunkSize > 0)) throw new Error('chunk size must be positive');
  const out: ChunkRange[] = [];
  let offset = Math.min(Math.max(0, Math.floor(received)), size);
  while (offset < size) {
    const end = Math.min(offset + chunkSize, size);
    out.push({ offset, end });
    offset = end;
  }
  return out;
}

/** nextOffsets: the offsets of planChunks, for tests and progress labels. */
export const nextOffsets = (size: number, chunkSize: number, received = 0) => planChunks(size, chunkSize, received).map((c) => c.offset);

/**
 * chooseChunkSize: a multiple of the server's chunk size (64 KB) that keeps a
 * file to about 100 requests, capped at 8 MB.
 */
export function chooseChunkSize(size: number, serverChunk: number): number {
  const base = serverChunk > 0 ? serverChunk : 65536;
  const cap = Math.max(base, Math.floor((8 * 1024 * 1024) / base) * base);
  const wanted = Math.ceil(size / 100 / base) * base;
  return Math.min(Math.max(base, wanted), cap);
}

export type UploadStage = 'queue' | 'add' | 'uploading' | 'done' | 'error';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  dirId: string;
  stage: UploadStage;
  sent: number;
  error?: string;
  uploadId?: string;
  fileId?: string;
}

export type UploadAction =
  | { type: 'enqueue'; items: Array<Pick<UploadItem, 'key' | 'name' | 'size' | 'dirId'>> }
  | { type: 'add'; key: string }
  | { type: 'uploading'; key: string; uploadId?: string; fileId?: string; sent?: number }
  | { type: 'progress'; key: string; sent: number }
  | { type: 'done'; key: string }
  | { type: 'error'; key: string; error: string }
  | { type: 'retry'; key: string }
  | { type: 'remove'; key: string }
  | { type: 'clearDone' };

function patch(state: UploadItem[], key: string, f: (it: UploadItem) => UploadItem): UploadItem[] {
  return state.map((it) => (it.key === key ? f(it) : it));
}

export function uploadReducer(state: UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'enqueue':
      return [...state, ...action.items.map((i) => ({ ...i, stage: 'queue' as const, sent: 0 }))];
    case 'add':
      return patch(state, action.key, (it) => ({ ...it, stage: 'add', error: undefined }));
    case 'uploading':
      return patch(state, action.key, (it) => ({
        ...it,
        stage: 'uploading',
        error: undefined,
        uploadId: action.uploadId ?? it.uploadId,
        fileId: action.fileId ?? it.fileId,
        sent: action.sent ?? it.sent,
      }));
    case 'progress':
      return patch(state, action.key, (it) => (it.stage === 'uploading' ? { ...it, sent: Math.min(action.sent, it.size) } : it));
    case 'done':
      return patch(state, action.key, (it) => ({ ...it, stage: 'done', sent: it.size, error: undefined }));
    case 'error':
      return patch(state, action.key, (it) => ({ ...it, stage: 'error', error: action.error }));
    case 'retry':
      return patch(state, action.key, (it) => (it.stage === 'error' ? { ...it, stage: 'queue', error: undefined } : it));
    case 'remove':
      return state.filter((it) => it.key !== action.key || it.stage === 'add' || it.stage === 'uploading');
    case 'clearDone':
      return state.filter((it) => it.stage !== 'done');
    default:
      return state;
  }
}

/** nextQueued: the first item waiting to start (one upload at a time). */
export function nextQueued(state: UploadItem[]): UploadItem | undefined {
  if (state.some((it) => it.stage === 'add' || it.stage === 'uploading')) return undefined;
  return state.find((it) => it.stage === 'queue');
}

/** percent of an item, 0–100 (an empty file is 100 once done). */
export function percent(it: Pick<UploadItem, 'sent' | 'size' | 'stage'>): number {
  if (it.size <= 0) return it.stage === 'done' ? 100 : 0;
  return Math.min(100, Math.floor((it.sent / it.size) * 100));
}
