// A screen's reads in one request (issue 21, requests per user action): the
// GETs and _finds that start together (a record screen's document, comments,
// history, files, checklist…) go out as one POST /api/_batch, which the
// server answers read by read, each with its own status. In the cloud every
// request costs API Gateway, CloudFront and a Lambda invocation, however
// small. Each read still gets a Response of its own, so lib/api.ts handles
// errors, the session check and the JSON as before.

import { API_BASE, requestHeaders, setSend } from './api';

export const BATCH_URL = `${API_BASE}/_batch`;
/** The server's bound on the reads of one batch. */
export const MAX_BATCH = 20;

type Send = (url: string, init: RequestInit) => Promise<Response>;

interface Read {
  url: string;
  init: RequestInit;
  resolve: (r: Response) => void;
  reject: (e: unknown) => void;
}

/** batchable says whether a call may wait for the others of its screen: a read, not cancellable, not a stream. */
export function batchable(url: string, init: RequestInit): boolean {
  if (!url.startsWith(`${API_BASE}/`) || init.signal || url.includes('feed=')) return false;
  if (['_session', '_live', '_batch'].some((p) => url.startsWith(`${API_BASE}/${p}`))) return false;
  if (init.method === 'GET') return true;
  return init.method === 'POST' && /\/_(find|all_docs)(\?|$)/.test(url);
}

let installed = false;

/** installBatching makes lib/api.ts send the signed-in tab's reads through batchedSend (once a tab). */
export function installBatching(): void {
  if (installed) return;
  installed = true;
  setSend(batchedSend((url, init) => fetch(url, init)));
}

/**
 * batchedSend gathers the reads started in the same turn of the event loop and sends them as one batch (one
 * alone as itself); everything else goes straight through. A read the batch could not carry (not JSON, too
 * large), or a batch that failed as a whole, is sent alone.
 */
export function batchedSend(send: Send): Send {
  let queue: Read[] = [];
  const alone = (r: Read) => send(r.url, r.init).then(r.resolve, r.reject);
  const flush = async (reads: Read[]) => {
    if (reads.length === 1) return alone(reads[0]!);
    const { headers, withCredentials } = requestHeaders('POST');
    let res: Response;
    try {
      res = await send(BATCH_URL, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        credentials: withCredentials ? 'same-origin' : 'omit',
        body: JSON.stringify({
          requests: reads.map((r) => ({
            method: r.init.method,
            path: r.url,
            ...(typeof r.init.body === 'string' ? { body: JSON.parse(r.init.body) as unknown } : {}),
          })),
        }),
      });
    } catch (e) {
      reads.forEach((r) => r.reject(e));
      return;
    }
    const answers = res.ok ? ((await res.json().catch(() => null)) as { responses?: { status: number; body: unknown }[] } | null)?.responses : null;
    if (!answers || answers.length !== reads.length) {
      reads.forEach((r) => void alone(r));
      return;
    }
    answers.forEach((a, i) => {
      const r = reads[i]!;
      if (a.status === 406 || a.status === 413) void alone(r);
      else r.resolve(new Response(a.status === 204 ? null : JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } }));
    });
  };
  return (url, init) => {
    if (!batchable(url, init)) return send(url, init);
    return new Promise<Response>((resolve, reject) => {
      if (queue.length === 0) {
        setTimeout(() => {
          const reads = queue;
          queue = [];
          for (let i = 0; i < reads.length; i += MAX_BATCH) void flush(reads.slice(i, i + MAX_BATCH));
        }, 0);
      }
      queue.push({ url, init, resolve, reject });
    });
  };
}
