import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen } from '../../../test/utils';
import { Component as Login } from './Login';

afterEach(() => vi.unstubAllGlobals());

describe('login', () => {
  it('shows the form with remember me, forgot password, language and the links', async () => {
    mockFetch();
    renderScreen(<Login />, { path: '/user/login', url: '/user/login' });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Remember me')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/user/password/new');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/user/register');
    expect(screen.getByRole('link', { name: "Didn't receive the confirmation email?" })).toHaveAttribute('href', '/user/confirm/new');
    expect(screen.getByLabelText('Language').tagName).toBe('SELECT');
  });

  it('"Please fill in e-mail and password" and nothing sent when a field is empty', async () => {
    const { fn } = mockFetch();
    renderScreen(<Login />, { path: '/user/login', url: '/user/login' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in e-mail and password.');
    // Only the session read of the page itself; no login attempt.
    expect(fn.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toEqual([]);
  });

  it('signs in, re-reads the session and goes to the return path', async () => {
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST' && c.path === '/api/_session') return json(200, { ok: true, name: 'usr-1', roles: ['usr-1'] });
      if (c.method === 'GET' && c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: 'usr-1', roles: ['usr-1'], locale: 'en' } });
      return undefined;
    });
    const { router } = renderScreen(<Login />, { path: '/user/login', url: '/user/login?return=%2Fuser%2Fprofile' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    const post = calls.findIndex((c) => c.method === 'POST');
    expect(calls[post]).toMatchObject({ path: '/api/_session', body: { name: 'ana@example.com', password: 'secret-pass', remember: true } });
    expect(calls.slice(post + 1)).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/_session' }));
  });

  it('past the email-confirmation deadline, signing in leads to the confirm screen with its notice', async () => {
    mockFetch((c) => {
      if (c.method === 'POST' && c.path === '/api/_session') return json(200, { ok: true, name: 'usr-1', roles: ['usr-1'] });
      if (c.method === 'GET' && c.path === '/api/_session')
        return json(200, { ok: true, confirmation_deadline: '2026-01-01T00:00:00Z', confirmation_expired: true, userCtx: { name: 'usr-1', roles: ['usr-1'], locale: 'en' } });
      return undefined;
    });
    const { router } = renderScreen(<Login />, { path: '/user/login', url: '/user/login?return=%2Fuser%2Fprofile' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'una@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/confirm/new'));
  });

  it('shows the server reason by its message key', async () => {
    mockFetch(() => json(401, { error: 'unauthorized', reason: 'Email or password is incorrect' }));
    renderScreen(<Login />, { path: '/user/login', url: '/user/login' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unauthorized');
    expect(alert).toHaveTextContent('Email or password is incorrect.');
  });
});
