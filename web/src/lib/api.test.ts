import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/utils';
import { api, request, setRouteName } from './api';
import { ApiError } from './errors';
import { onAppEvent } from './events';
import { KEYS } from './storage';

function setCookie(v: string) {
  document.cookie = v;
}

afterEach(() => {
  setCookie('XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/');
  vi.unstubAllGlobals();
});

describe('api client headers', () => {
  it('sends JSON headers, the route name and same-origin credentials', async () => {
    const { calls } = mockFetch(() => json(200, { ok: true }));
    setRouteName('customers#index');
    await api.get('acc-1/_changes', { since: 3, descending: true, skip: undefined });
    expect(calls).toHaveLength(1);
    const c = calls[0]!;
    expect(c.path).toBe('/api/acc-1/_changes?since=3&descending=true');
    expect(c.headers.accept).toBe('application/json');
    expect(c.headers['x-route-name']).toBe('customers#index');
    expect(c.credentials).toBe('same-origin');
    expect(c.headers['x-xsrf-token']).toBeUndefined();
  });

  it('echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN on POST, PUT and DELETE only', async () => {
    setCookie('XSRF-TOKEN=tok%2Fen-123; path=/');
    const { calls } = mockFetch(() => json(201, { ok: true, id: 'x', rev: '1-a' }));
    await api.get('db');
    await api.post('db', { a: 1 });
    await api.put('db/doc', { a: 2 }, { rev: '1-a' });
    await api.del('db/doc', { rev: '2-b' });
    expect(calls.map((c) => [c.method, c.headers['x-xsrf-token']])).toEqual([
      ['GET', undefined],
      ['POST', 'tok/en-123'],
      ['PUT', 'tok/en-123'],
      ['DELETE', 'tok/en-123'],
    ]);
    expect(calls[1]!.headers['content-type']).toBe('application/json');
    expect(calls[1]!.body).toEqual({ a: 1 });
    expect(calls[2]!.path).toBe('/api/db/doc?rev=1-a');
  });

  it('uses a stored bearer token instead of cookies', async () => {
    window.localStorage.setItem(KEYS.token, 'secret-token');
    setCookie('XSRF-TOKEN=abc; path=/');
    const { calls } = mockFetch(() => json(200, {}));
    await api.post('db/_find', { selector: {} });
    expect(calls[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(calls[0]!.credentials).toBe('omit');
    expect(calls[0]!.headers['x-xsrf-token']).toBeUndefined();
  });
});

describe('api client errors', () => {
  it('parses the {error, reason, fields} envelope into an ApiError', async () => {
    mockFetch(() =>
      json(422, { error: 'unprocessable_entity', reason: 'Your request failed', fields: { email: ["can't be blank"], name: 'too long' } }),
    );
    const err = await api.post('_users', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.error).toBe('unprocessable_entity');
    expect(e.reason).toBe('Your request failed');
    expect(e.fields).toEqual({ email: ["can't be blank"], name: ['too long'] });
    expect(e.hasFieldErrors()).toBe(true);
  });

  it('names an error by its status when the body is not an envelope', async () => {
    mockFetch(() => new Response('<html>oops</html>', { status: 500, statusText: 'Internal Server Error' }));
    const e = (await api.get('db').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(500);
    expect(e.error).toBe('internal_server_error');
  });

  it('turns a network failure into a connection error', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const e = (await api.get('db').catch((x: unknown) => x)) as ApiError;
    expect(e.error).toBe('connection_error');
    expect(e.reason).toBe('Network error');
  });
});

describe('401/403 → session check → logged-out', () => {
  it('raises logged-out when GET /_session answers 401', async () => {
    const { calls } = mockFetch((c) =>
      c.path === '/api/_session'
        ? json(401, { error: 'unauthorized', reason: 'You are not logged in.' })
        : json(401, { error: 'unauthorized', reason: 'You are not logged in.' }),
    );
    const loggedOut = vi.fn();
    const off = onAppEvent('logged-out', loggedOut);
    await expect(api.get('acc-1/doc')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => expect(loggedOut).toHaveBeenCalledTimes(1));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/acc-1/doc', 'GET /api/_session']);
    off();
  });

  it('a 403 triggers the check too, and a live session raises nothing', async () => {
    const { calls } = mockFetch((c) =>
      c.path === '/api/_session'
        ? json(200, { ok: true, userCtx: { name: 'usr-1', roles: [] } })
        : json(403, { error: 'forbidden', reason: 'Permission denied' }),
    );
    const loggedOut = vi.fn();
    const off = onAppEvent('logged-out', loggedOut);
    await expect(api.get('acc-2/doc')).rejects.toMatchObject({ status: 403, error: 'forbidden' });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 10));
    expect(loggedOut).not.toHaveBeenCalled();
    off();
  });

  it('concurrent failures share one session check', async () => {
    const { calls } = mockFetch((c) => (c.path === '/api/_session' ? json(401, {}) : json(401, {})));
    const loggedOut = vi.fn();
    const off = onAppEvent('logged-out', loggedOut);
    await Promise.allSettled([api.get('a/1'), api.get('a/2'), api.get('a/3')]);
    await vi.waitFor(() => expect(loggedOut).toHaveBeenCalled());
    expect(calls.filter((c) => c.path === '/api/_session')).toHaveLength(1);
    off();
  });

  it('the login call itself never triggers the check', async () => {
    const { calls } = mockFetch(() => json(401, { error: 'unauthorized', reason: 'Email or password is incorrect' }));
    await expect(request('_session', { method: 'POST', body: {}, noSessionCheck: true })).rejects.toMatchObject({
      reason: 'Email or password is incorrect',
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toHaveLength(1);
  });
});
