// A file sent as a request body with upload progress (fetch has none): the
// same headers and error envelope as lib/api's calls.

import { apiUrl, checkSession, parseError, requestHeaders, type Query } from './api';
import { connectionError } from './errors';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** uploadFile POSTs file as the body of /api/<path> and resolves with the JSON answer. */
export function uploadFile<T>(
  path: string,
  file: Blob,
  query: Query,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path, query));
    const { headers, withCredentials } = requestHeaders('POST');
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.withCredentials = withCredentials;
    xhr.upload.onprogress = (e) => onProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onerror = () => reject(connectionError());
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText });
      if (xhr.status >= 200 && xhr.status < 300) {
        res.json().then((v) => resolve(v as T), () => resolve(undefined as T));
        return;
      }
      if (xhr.status === 401 || xhr.status === 403) void checkSession();
      void parseError(res).then(reject);
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
