// The one fetch wrapper of the app (SPEC §7): JSON headers and the route-name
// header on every call, cookies (same-origin) or a bearer token from local
// storage, the XSRF double-submit header on unsafe methods, errors parsed
// from the {error, reason, fields} envelope, and the 401/403 → session check
// → "logged-out" event of SPEC §4.

import { readCookie } from './cookies';
import { ApiError, connectionError, type FieldErrors } from './errors';
import { emitAppEvent } from './events';
import { KEYS, readStored } from './storage';

export const API_BASE = '/api';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const ROUTE_NAME_HEADER = 'X-Route-Name';

let routeName = 'unknown';

/** setRouteName records the current route's name for the X-Route-Name header. */
export function setRouteName(name: string): void {
  routeName = name;
}

export function currentRouteName(): string {
  return routeName;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Headers of this call alone (e.g. Prefer), over the common ones. */
  headers?: Record<string, string>;
  /** Skip the 401/403 session check (the session calls themselves). */
  noSessionCheck?: boolean;
}

/** url builds "/api/<path>?<query>" (path segments are expected pre-encoded). */
export function apiUrl(path: string, query?: Query): string {
  const clean = path.replace(/^\/+/, '');
  let url = `${API_BASE}/${clean}`;
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) qs.set(k, String(v));
    }
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  return url;
}

/** enc encodes one path segment (ids, db names). */
export const enc = encodeURIComponent;

function bearerToken(): string | null {
  const t = readStored(KEYS.token);
  return t && t.trim() ? t.trim() : null;
}

/**
 * requestHeaders are the headers every call carries: JSON accepted, the
 * route name, and the bearer token or (on unsafe methods) the XSRF header.
 * withCredentials says whether the session cookies go along.
 */
export function requestHeaders(method: Method): { headers: Record<string, string>; withCredentials: boolean } {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [ROUTE_NAME_HEADER]: routeName,
  };
  const token = bearerToken();
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    return { headers, withCredentials: false };
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
  }
  return { headers, withCredentials: true };
}

function buildInit(method: Method, body: unknown, signal?: AbortSignal, extra?: Record<string, string>): RequestInit {
  const { headers, withCredentials } = requestHeaders(method);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (extra) Object.assign(headers, extra);
  const credentials: RequestCredentials = withCredentials ? 'same-origin' : 'omit';
  const init: RequestInit = { method, headers, credentials };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (signal) init.signal = signal;
  return init;
}

function asFields(v: unknown): FieldErrors {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: FieldErrors = {};
  for (const [k, msgs] of Object.entries(v as Record<string, unknown>)) {
    if (Array.isArray(msgs)) out[k] = msgs.map(String);
    else if (typeof msgs === 'string') out[k] = [msgs];
  }
  return out;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'internal_server_error',
};

/** parseError reads the error envelope; a body that is not one still gives a typed error. */
export async function parseError(res: Response): Promise<ApiError> {
  let payload: unknown = null;
  try {
    payload = await res.json();
  } catch {
    payload = null;
  }
  const fallbackName = STATUS_NAMES[res.status] ?? (res.status >= 500 ? 'internal_server_error' : 'error');
  if (payload && typeof payload === 'object') {
    const p = payload as { error?: unknown; reason?: unknown; fields?: unknown };
    const name = typeof p.error === 'string' && p.error ? p.error : fallbackName;
    const reason = typeof p.reason === 'string' ? p.reason : '';
    return new ApiError(res.status, name, reason, asFields(p.fields));
  }
  return new ApiError(res.status, fallbackName, res.statusText || '');
}

/** How calls go out: fetch, or what the signed-in shell sets (lib/batch.ts gathers a screen's reads). */
let send: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init);
export const setSend = (f: typeof send) => (send = f);

let sessionCheck: Promise<void> | null = null;

/**
 * checkSession asks GET /_session whether the user is still signed in; a 401
 * raises "logged-out". Concurrent failures share one check.
 */
export function checkSession(): Promise<void> {
  if (!sessionCheck) {
    sessionCheck = (async () => {
      try {
        const res = await fetch(apiUrl('_session'), buildInit('GET', undefined));
        if (res.status === 401) emitAppEvent('logged-out');
      } catch {
        // offline: nothing to conclude
      } finally {
        sessionCheck = null;
      }
    })();
  }
  return sessionCheck;
}

/** request performs one API call and resolves with the parsed JSON body. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  let res: Response;
  try {
    res = await send(apiUrl(path, opts.query), buildInit(method, opts.body, opts.signal, opts.headers));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw connectionError();
  }
  if (!res.ok) {
    const error = await parseError(res);
    if ((res.status === 401 || res.status === 403) && !opts.noSessionCheck) {
      void checkSession();
    }
    throw error;
  }
  if (res.status === 204 || method === 'HEAD') return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'bad_response', 'Undefined error');
  }
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>(path, { method: 'GET', ...(query ? { query } : {}), ...(signal ? { signal } : {}) }),
  post: <T>(path: string, body: unknown, query?: Query, headers?: Record<string, string>) =>
    request<T>(path, { method: 'POST', body, ...(query ? { query } : {}), ...(headers ? { headers } : {}) }),
  put: <T>(path: string, body: unknown, query?: Query, headers?: Record<string, string>) =>
    request<T>(path, { method: 'PUT', body: body ?? {}, ...(query ? { query } : {}), ...(headers ? { headers } : {}) }),
  del: <T>(path: string, query?: Query) => request<T>(path, { method: 'DELETE', ...(query ? { query } : {}) }),
};
