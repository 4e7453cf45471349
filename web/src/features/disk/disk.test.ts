import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../lib/format';
import { webdavUrl } from './api/drive';
import { chooseChunkSize, nextOffsets, nextQueued, percent, planChunks, uploadReducer, type UploadItem } from './upload-plan';

describe('chunk planner', () => {
  it('splits from zero in chunk-size steps, the last one short', () => {
    expect(planChunks(150_000, 65536)).toEqual([
      { offset: 0, end: 65536 },
      { offset: 65536, end: 131072 },
      { offset: 131072, end: 150_000 },
    ]);
  });
  it('resumes from received', () => {
    expect(nextOffsets(150_000, 65536, 65536)).toEqual([65536, 131072]);
    expect(nextOffsets(150_000, 65536, 100_000)).toEqual([100_000]);
    expect(nextOffsets(150_000, 65536, 150_000)).toEqual([]);
    expect(nextOffsets(150_000, 65536, 999_999)).toEqual([]);
    expect(nextOffsets(10, 65536, -5)).toEqual([0]);
  });
  it('an empty file has no chunks; a bad chunk size throws', () => {
    expect(planChunks(0, 65536)).toEqual([]);
    expect(() => planChunks(10, 0)).toThrow();
  });
  it('chooses a multiple of the server chunk', () => {
    expect(chooseChunkSize(1000, 65536)).toBe(65536);
    const c = chooseChunkSize(100 * 1024 * 1024, 65536);
    expect(c % 65536).toBe(0);
    expect(c).toBeGreaterThan(65536);
    expect(chooseChunkSize(10 * 1024 * 1024 * 1024, 65536)).toBe(8 * 1024 * 1024);
  });
});

describe('sizes base 1000', () => {
  it('formats with 1 decimal', () => {
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(1500, 'en')).toBe('1.5 kB');
    expect(formatBytes(2_500_000, 'pt-BR')).toBe('2,5 MB');
    expect(formatBytes(999_960, 'en')).toBe('1.0 MB');
  });
});

describe('upload stage reducer', () => {
  const one = (s: UploadItem[]) => s[0]!;
  it('walks queue → add → uploading → done', () => {
    let s = uploadReducer([], { type: 'enqueue', items: [{ key: 'a', name: 'a.txt', size: 100, dirId: '' }] });
    expect(one(s).stage).toBe('queue');
    expect(nextQueued(s)?.key).toBe('a');
    s = uploadReducer(s, { type: 'add', key: 'a' });
    expect(one(s).stage).toBe('add');
    expect(nextQueued(s)).toBeUndefined();
    s = uploadReducer(s, { type: 'uploading', key: 'a', uploadId: 'u1', fileId: 'f1' });
    s = uploadReducer(s, { type: 'progress', key: 'a', sent: 40 });
    expect(percent(one(s))).toBe(40);
    s = uploadReducer(s, { type: 'done', key: 'a' });
    expect(one(s)).toMatchObject({ stage: 'done', sent: 100, uploadId: 'u1', fileId: 'f1' });
    expect(uploadReducer(s, { type: 'clearDone' })).toEqual([]);
  });
  it('an error keeps the upload id for a retry, which requeues it', () => {
    let s = uploadReducer([], { type: 'enqueue', items: [{ key: 'a', name: 'a', size: 10, dirId: '' }] });
    s = uploadReducer(s, { type: 'uploading', key: 'a', uploadId: 'u1' });
    s = uploadReducer(s, { type: 'error', key: 'a', error: 'boom' });
    expect(one(s)).toMatchObject({ stage: 'error', error: 'boom', uploadId: 'u1' });
    s = uploadReducer(s, { type: 'retry', key: 'a' });
    expect(one(s)).toMatchObject({ stage: 'queue', uploadId: 'u1' });
    expect(one(s).error).toBeUndefined();
  });
  it('does not remove a running item; progress only counts while uploading', () => {
    let s = uploadReducer([], { type: 'enqueue', items: [{ key: 'a', name: 'a', size: 10, dirId: '' }] });
    s = uploadReducer(s, { type: 'progress', key: 'a', sent: 5 });
    expect(one(s).sent).toBe(0);
    s = uploadReducer(s, { type: 'add', key: 'a' });
    expect(uploadReducer(s, { type: 'remove', key: 'a' })).toHaveLength(1);
  });
});

describe('the WebDAV address', () => {
  it("is the origin's /dav/ unless the server names one (the cloud's WebDAV function)", () => {
    expect(webdavUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/dav/');
    expect(webdavUrl('https://app.example.com', 'https://abc.lambda-url.us-east-1.on.aws/dav/')).toBe('https://abc.lambda-url.us-east-1.on.aws/dav/');
  });
});
