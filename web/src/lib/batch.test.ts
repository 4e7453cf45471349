import { describe, expect, it, vi } from 'vitest';
import { BATCH_URL, batchable, batchedSend } from './batch';

const get = (): RequestInit => ({ method: 'GET', headers: {}, credentials: 'same-origin' });
const find = (body: unknown): RequestInit => ({ method: 'POST', headers: {}, credentials: 'same-origin', body: JSON.stringify(body) });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('batchable', () => {
  it('takes reads of the API that may wait a turn', () => {
    expect(batchable('/api/acc-1/tik-1', get())).toBe(true);
    expect(batchable('/api/acc-1/_find', find({}))).toBe(true);
    expect(batchable('/api/acc-1/_all_docs?limit=5', find({}))).toBe(true);
    expect(batchable('/api/_labels', get())).toBe(true);
    expect(batchable('/api/acc-1', { method: 'POST', body: '{}' })).toBe(false); // a write
    expect(batchable('/api/acc-1/tik-1', { method: 'PUT', body: '{}' })).toBe(false);
    expect(batchable('/api/acc-1/_design/x/_update/y', { method: 'POST', body: '{}' })).toBe(false);
    expect(batchable('/api/_session', get())).toBe(false);
    expect(batchable('/api/_live', get())).toBe(false);
    expect(batchable('/api/acc-1/_changes?feed=longpoll', get())).toBe(false);
    expect(batchable('/api/acc-1/tik-1', { method: 'GET', signal: new AbortController().signal })).toBe(false);
    expect(batchable('/other/x', get())).toBe(false);
  });
});

describe('batchedSend', () => {
  it('sends the reads of one turn as one batch and answers each with its own status and body', async () => {
    const send = vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe(BATCH_URL);
      expect(init.method).toBe('POST');
      const { requests } = JSON.parse(String(init.body)) as { requests: { method: string; path: string; body?: unknown }[] };
      expect(requests).toEqual([
        { method: 'GET', path: '/api/acc-1/tik-1' },
        { method: 'POST', path: '/api/acc-1/_find', body: { selector: { klass: 'Comment' } } },
        { method: 'GET', path: '/api/acc-1/tik-9' },
      ]);
      return json(200, { responses: [{ status: 200, body: { _id: 'tik-1' } }, { status: 200, body: { docs: [] } }, { status: 404, body: { error: 'not_found', reason: 'missing' } }] });
    });
    const s = batchedSend(send);
    const [a, b, c] = await Promise.all([s('/api/acc-1/tik-1', get()), s('/api/acc-1/_find', find({ selector: { klass: 'Comment' } })), s('/api/acc-1/tik-9', get())]);
    expect(send).toHaveBeenCalledTimes(1);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 404]);
    expect(await a.json()).toEqual({ _id: 'tik-1' });
    expect(await b.json()).toEqual({ docs: [] });
    expect(await c.json()).toEqual({ error: 'not_found', reason: 'missing' });
  });

  it('sends one read alone, writes straight away, and reads the batch could not carry alone', async () => {
    const calls: string[] = [];
    const send = vi.fn(async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      if (url === BATCH_URL) return json(200, { responses: [{ status: 406, body: { error: 'not_acceptable' } }, { status: 200, body: { ok: 1 } }] });
      return json(200, { alone: url });
    });
    const s = batchedSend(send);
    expect(await (await s('/api/acc-1/tik-1', get())).json()).toEqual({ alone: '/api/acc-1/tik-1' });
    await s('/api/acc-1', { method: 'POST', body: '{}' });
    const [pdf, ok] = await Promise.all([s('/api/acc-1/x.pdf', get()), s('/api/acc-1/tik-2', get())]);
    expect(await pdf.json()).toEqual({ alone: '/api/acc-1/x.pdf' });
    expect(await ok.json()).toEqual({ ok: 1 });
    expect(calls).toEqual(['GET /api/acc-1/tik-1', 'POST /api/acc-1', `POST ${BATCH_URL}`, 'GET /api/acc-1/x.pdf']);
  });

  it('falls back to each read alone when the batch fails as a whole, and splits batches at 20', async () => {
    const batches: number[] = [];
    let alone = 0;
    const send = vi.fn(async (url: string, init: RequestInit) => {
      if (url !== BATCH_URL) {
        alone++;
        return json(200, {});
      }
      const n = (JSON.parse(String(init.body)) as { requests: unknown[] }).requests.length;
      batches.push(n);
      if (batches.length === 1) return json(404, { error: 'not_found' }); // a server without _batch
      return json(200, { responses: Array.from({ length: n }, () => ({ status: 200, body: {} })) });
    });
    const s = batchedSend(send);
    await Promise.all([s('/api/a/1', get()), s('/api/a/2', get())]);
    expect(alone).toBe(2);
    await Promise.all(Array.from({ length: 25 }, (_, i) => s(`/api/a/${i}`, get())));
    expect(batches).toEqual([2, 20, 5]);
  });

  it('rejects every read of a batch that could not be sent', async () => {
    const s = batchedSend(async () => {
      throw new TypeError('offline');
    });
    const results = await Promise.allSettled([s('/api/a/1', get()), s('/api/a/2', get())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
