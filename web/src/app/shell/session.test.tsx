// SPEC §4 through the real route table: sign-in guard, active db from the
// route, and the re-login modal raised by a 401 on a sign-in route.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getActiveDb, setActiveDb } from '../../lib/active-db';
import { json, mockFetch, renderRoutes, type Call } from '../../test/utils';
import { buildRoutes } from '../router';

const USER = {
  _id: 'usr-0123456789abcdef0123456789abcdef',
  _rev: '1-a',
  fullname: 'Ana Souza',
  email: 'ana@example.com',
  unconfirmed_email: 'ana.new@example.com',
  confirmed_at: '2025-01-01T00:00:00.000Z',
  created_at: '2025-01-01T10:00:00.000Z',
  updated_at: '2025-02-01T10:00:00.000Z',
};
const ACC = 'acc-0123456789abcdef0123456789abcdef';

function renderApp(url: string) {
  return renderRoutes(buildRoutes, url);
}

afterEach(() => {
  vi.unstubAllGlobals();
  setActiveDb(null);
});

describe('session behaviour', () => {
  it('a sign-in route sends a signed-out visitor to user#login with the way back', async () => {
    mockFetch((c) => (c.path === '/api/_session' ? json(401, { error: 'unauthorized', reason: 'You are not logged in.' }) : undefined));
    const { router } = renderApp('/user/profile?page=data');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toBe('?return=%2Fuser%2Fprofile%3Fpage%3Ddata');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('the route account id becomes the active db before the screen loads', async () => {
    const seen: Call[] = [];
    mockFetch((c) => {
      seen.push(c);
      if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: USER._id, roles: [USER._id, ACC] } });
      if (c.path.includes('/_find')) return json(200, { docs: [] });
      return undefined;
    });
    const { router } = renderApp(`/account/${ACC}/customers`);
    await waitFor(() => expect(getActiveDb()).toBe(ACC));
    expect(await screen.findByTestId('records-empty')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/account/${ACC}/customers`);
    const find = seen.find((c) => c.path === `/api/${ACC}/_find` && (c.body as { selector: { klass?: string } }).selector.klass === 'Customer');
    expect(find?.headers['x-route-name']).toBe('customers#index');
  });

  it('a 401 on a sign-in route opens the re-login modal; signing in closes it', async () => {
    let signedIn = true;
    let userReads = 0;
    const { calls } = mockFetch((c) => {
      if (c.path === '/api/_session' && c.method === 'GET') {
        return signedIn
          ? json(200, { ok: true, userCtx: { name: USER._id, roles: [USER._id], locale: 'en' } })
          : json(401, { error: 'unauthorized', reason: 'You are not logged in.' });
      }
      if (c.path === '/api/_session' && c.method === 'POST') {
        signedIn = true;
        return json(200, { ok: true, name: USER._id, roles: [USER._id] });
      }
      if (c.path.startsWith(`/api/_users/${USER._id}`)) {
        userReads++;
        return signedIn ? json(200, USER) : json(401, { error: 'unauthorized', reason: 'You are not logged in.' });
      }
      if (c.path.includes('/_find')) return json(200, { docs: [] });
      return undefined;
    });
    const { qc } = renderApp('/user/profile');
    expect(await screen.findByRole('heading', { name: 'Ana Souza' })).toBeInTheDocument();
    expect(screen.getByTestId('pending-email')).toHaveTextContent('ana.new@example.com');

    // The session ends on the server; the next call fails with 401.
    signedIn = false;
    await qc.invalidateQueries({ queryKey: ['user'] });
    const modal = await screen.findByTestId('relogin-modal');
    expect(within(modal).getByRole('heading', { name: 'Please login again' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret-pass');
    await user.click(within(modal).getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.queryByTestId('relogin-modal')).toBeNull());
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/_session')).toBe(true);
    await waitFor(() => expect(userReads).toBeGreaterThanOrEqual(3));
    expect(screen.queryByTestId('error-alert')).toBeNull();
  });

  it('on a public page a 401 does not open the modal', async () => {
    mockFetch((c) => {
      if (c.path === '/api/_session') return json(401, { error: 'unauthorized', reason: 'You are not logged in.' });
      if (c.path === '/api/prices/_find') return json(401, { error: 'unauthorized', reason: 'You are not logged in.' });
      return undefined;
    });
    renderApp('/');
    expect(await screen.findByTestId('pricing-empty')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('relogin-modal')).toBeNull();
  });
});
