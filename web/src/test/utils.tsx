// Test helpers: a fetch double that routes by method and path, and a render
// with the app's providers around one screen.

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { makeQueryClient } from '../lib/query-client';
import type { RouteHandle } from '../lib/route-handle';
import { ThemeModeProvider } from '../lib/theme';

export interface Call {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type Handler = (call: Call) => Response | Promise<Response> | undefined;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** mockFetch replaces fetch; unhandled calls answer 404 not_found. */
export function mockFetch(handler: Handler = () => undefined) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const u = new URL(url, 'http://localhost');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const call: Call = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: u.pathname + u.search,
      url,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
    };
    calls.push(call);
    return (await handler(call)) ?? json(404, { error: 'not_found', reason: 'missing' });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}

/** renderScreen mounts one screen under a memory data router with the app's providers. */
export function renderScreen(
  element: ReactElement,
  { path = '/', url = '/', handle }: { path?: string; url?: string; handle?: RouteHandle } = {},
) {
  const qc = makeQueryClient();
  const router = createMemoryRouter(
    [
      { path, element, ...(handle ? { handle } : {}) },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: [url] },
  );
  const utils = render(
    <QueryClientProvider client={qc}>
      <ThemeModeProvider>
        <RouterProvider router={router} />
      </ThemeModeProvider>
    </QueryClientProvider>,
  );
  return { ...utils, router, qc };
}

/** renderRoutes mounts a whole route table (buildRoutes) at url, lazy routes and all, with the app's providers. */
export function renderRoutes(build: (qc: QueryClient) => RouteObject[], url: string) {
  const qc = makeQueryClient();
  const router = createMemoryRouter(build(qc), { initialEntries: [url] });
  render(
    <QueryClientProvider client={qc}>
      <ThemeModeProvider>
        <Suspense fallback={null}>
          <RouterProvider router={router} />
        </Suspense>
      </ThemeModeProvider>
    </QueryClientProvider>,
  );
  return { router, qc };
}
