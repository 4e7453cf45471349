import { describe, expect, it } from 'vitest';
import { ApiError, connectionError } from '../../lib/errors';
import type { CloudFile, UploadState } from './api/drive';
import { runUpload, type UploadDeps, type UploadMemo } from './upload-run';

const KB64 = 65536;

const read = (b: Blob) =>
  new Promise<Uint8Array>((ok) => {
    const r = new FileReader();
    r.onload = () => ok(new Uint8Array(r.result as ArrayBuffer));
    r.readAsArrayBuffer(b);
  });

/** server is a double of the drive's upload routes, keeping the bytes it got. */
function server(mode: 'server' | 'presigned', opts: { dropChunkAt?: number[]; dropPart?: number[]; existing?: CloudFile } = {}) {
  const calls: string[] = [];
  let staged = new Uint8Array(0);
  const parts = new Map<number, Uint8Array>();
  const drops = { chunk: [...(opts.dropChunkAt ?? [])], part: [...(opts.dropPart ?? [])] };
  let size = 0;
  const state = (): UploadState =>
    mode === 'server'
      ? { upload_id: 'u1', mode, size, received: staged.length, chunk_size: KB64 }
      : { upload_id: 'u1', mode, size, part_size: 100_000, parts: Math.ceil(size / 100_000) };
  const bytes = (b: Blob) =>
    new Promise<Uint8Array>((ok) => {
      const r = new FileReader();
      r.onload = () => ok(new Uint8Array(r.result as ArrayBuffer));
      r.readAsArrayBuffer(b);
    });
  const deps: UploadDeps = {
    findByName: async (_dir, name) => (opts.existing?.name === name ? opts.existing : undefined),
    start: async (body) => {
      calls.push(`start ${JSON.stringify(body)}`);
      size = body.size;
      return state();
    },
    get: async () => {
      calls.push('get');
      return state();
    },
    putChunk: async (_u, offset, chunk, onProgress) => {
      const b = await bytes(chunk);
      if (drops.chunk[0] === offset) {
        drops.chunk.shift();
        // Half the chunk arrived before the connection dropped.
        const half = b.slice(0, b.length >> 1);
        staged = new Uint8Array([...staged, ...half]);
        calls.push(`chunk ${offset} dropped`);
        throw connectionError();
      }
      if (offset !== staged.length) return { ok: false, conflict: true, received: staged.length };
      staged = new Uint8Array([...staged, ...b]);
      onProgress(b.length);
      calls.push(`chunk ${offset}`);
      return { ok: true, received: staged.length };
    },
    presign: async (_u, numbers) => {
      calls.push(`presign ${numbers.join(',')}`);
      return numbers.map((number) => ({ number, url: `https://s3.test/part/${number}` }));
    },
    putPart: async (url, chunk) => {
      const n = Number(url.split('/').pop());
      if (drops.part[0] === n) {
        drops.part.shift();
        calls.push(`part ${n} dropped`);
        throw connectionError();
      }
      parts.set(n, await bytes(chunk));
      calls.push(`part ${n}`);
      return `"etag-${n}"`;
    },
    getEntry: async (id) => ({ _id: id, _rev: '7-abc', name: 'x', dir_id: '', kind: 'file' }) as CloudFile,
    commit: async (_u, rev, ps) => {
      calls.push(`commit ${rev} ${ps ? ps.map((p) => `${p.number}:${p.etag}`).join(',') : ''}`.trim());
      return { id: 'fle-new' };
    },
    sleep: async () => undefined,
  };
  const joined = () => {
    if (mode === 'server') return staged;
    const all = [...parts.keys()].sort((a, b) => a - b).flatMap((n) => [...parts.get(n)!]);
    return new Uint8Array(all);
  };
  return { deps, calls, joined };
}

const file = (n: number) => new Blob([Uint8Array.from({ length: n }, (_, i) => i % 251)]);
const events = () => ({ stage: () => undefined, progress: () => undefined });

describe('runUpload', () => {
  it('sends chunks through the server and resumes from what it kept after a dropped connection', async () => {
    const s = server('server', { dropChunkAt: [KB64] });
    const f = file(3 * KB64 + 10);
    const memo: UploadMemo = { etags: new Map() };
    await runUpload(s.deps, f, 'a.bin', 'fle-dir', memo, events());
    expect(s.calls[0]).toBe(`start ${JSON.stringify({ dir_id: 'fle-dir', name: 'a.bin', size: f.size })}`);
    // After the drop: ask the server, then go on from half the chunk.
    expect(s.calls).toContain(`chunk ${KB64} dropped`);
    expect(s.calls).toContain('get');
    expect(s.calls).toContain(`chunk ${KB64 + KB64 / 2}`);
    expect(s.calls.at(-1)).toBe('commit');
    expect(s.joined()).toEqual(await read(f));
  });

  it('chooses the presigned path when the server says so, and sends only the parts not acknowledged', async () => {
    const s = server('presigned', { dropPart: [2], existing: { _id: 'fle-1', name: 'b.bin', dir_id: '', kind: 'file' } as CloudFile });
    const f = file(250_000);
    const memo: UploadMemo = { etags: new Map() };
    await runUpload(s.deps, f, 'b.bin', '', memo, events());
    expect(s.calls[0]).toBe(`start ${JSON.stringify({ file_id: 'fle-1', size: 250_000 })}`);
    expect(s.calls.filter((c) => c.startsWith('chunk'))).toEqual([]);
    expect(s.calls).toEqual(['start {"file_id":"fle-1","size":250000}', 'presign 1,2,3', 'part 1', 'part 2 dropped', 'presign 2,3', 'part 2', 'part 3', 'commit 7-abc 1:"etag-1",2:"etag-2",3:"etag-3"']);
    expect(s.joined()).toEqual(await read(f));
  });

  it('a retry of a presigned upload resumes from the parts kept in its memo', async () => {
    const s = server('presigned');
    const f = file(250_000);
    const memo: UploadMemo = { etags: new Map() };
    s.deps.putPart = async (url) => {
      if (url.endsWith('/3')) throw new ApiError(403, 'storage_error', 'expired');
      return `"e-${url.split('/').pop()}"`;
    };
    await expect(runUpload(s.deps, f, 'c.bin', '', memo, events())).rejects.toThrow();
    expect([...memo.etags.keys()]).toEqual([1, 2]);
    const again = server('presigned');
    again.deps.start = async () => {
      throw new Error('a retry must not start over');
    };
    again.deps.get = async () => ({ upload_id: 'u1', mode: 'presigned', size: 250_000, part_size: 100_000, parts: 3 });
    await runUpload(again.deps, f, 'c.bin', '', memo, events());
    expect(again.calls).toEqual(['presign 3', 'part 3', 'commit  1:"e-1",2:"e-2",3:"etag-3"']);
  });

  it('gives up after too many drops in a row, keeping the memo for a retry', async () => {
    const s = server('server');
    s.deps.putChunk = async () => {
      throw connectionError();
    };
    const memo: UploadMemo = { etags: new Map() };
    await expect(runUpload(s.deps, file(100), 'd.bin', '', memo, events())).rejects.toMatchObject({ status: 0 });
    expect(memo.uploadId).toBe('u1');
  });
});
