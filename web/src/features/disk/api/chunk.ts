// PUT one chunk of a resumable upload with progress (XHR: fetch has none),
// with the API's headers. A 409 answer (wrong offset) resolves with the
// server's `received` so the caller resumes from there.

import { apiUrl, checkSession, parseError, requestHeaders } from '../../../lib/api';
import { ApiError, connectionError } from '../../../lib/errors';

export type ChunkAnswer = { ok: true; received: number } | { ok: false; conflict: true; received: number };

export function putChunk(
  path: string,
  offset: number,
  chunk: Blob,
  onProgress?: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<ChunkAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', apiUrl(path, { offset }));
    const { headers, withCredentials } = requestHeaders('PUT');
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.withCredentials = withCredentials;
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded);
    xhr.onerror = () => reject(connectionError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let body: { received?: unknown } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { received?: unknown };
      } catch {
        body = null;
      }
      const received = typeof body?.received === 'number' ? body.received : NaN;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true, received: Number.isFinite(received) ? received : offset + chunk.size });
        return;
      }
      if (xhr.status === 409 && Number.isFinite(received)) {
        resolve({ ok: false, conflict: true, received });
        return;
      }
      if (xhr.status === 401 || xhr.status === 403) void checkSession();
      void parseError(new Response(xhr.responseText, { status: xhr.status, statusText: xhr.statusText })).then(reject);
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(chunk);
  });
}

/**
 * putPart PUTs one part of a presigned upload straight to S3 (no API
 * headers, no cookies: the URL is the credential) and resolves with the
 * ETag it answered, which the bucket's CORS rule exposes.
 */
export function putPart(url: string, chunk: Blob, onProgress?: (loaded: number) => void, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded);
    xhr.onerror = () => reject(connectionError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('ETag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) {
        resolve(etag);
        return;
      }
      const reason = xhr.status >= 200 && xhr.status < 300 ? 'The file storage did not show the part\'s ETag (check the bucket\'s CORS rule).' : `The file storage refused a part (${xhr.status}).`;
      reject(new ApiError(xhr.status || 0, 'storage_error', reason));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(chunk);
  });
}
