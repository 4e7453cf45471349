import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen } from '../../../test/utils';
import { validateRegistration } from '../validation';
import { Component as Register } from './Register';

afterEach(() => vi.unstubAllGlobals());

const field = (label: RegExp | string) => screen.getByLabelText(label);

describe('registration client checks (SPEC §5)', () => {
  it('pure rules: a blank sign-up flags every empty field; short password, mismatch, terms', () => {
    expect(validateRegistration({ email: ' ', password: '', password_confirmation: '', accept_terms: false })?.fields).toEqual({
      email: ['cant-be-blank'],
      password: ['cant-be-blank'],
      password_confirmation: ['cant-be-blank'],
      accept_terms: ['must-be-accepted'],
    });
    expect(validateRegistration({ email: 'a@b.c', password: 'short', password_confirmation: 'short', accept_terms: true })?.fields).toEqual({
      password: ['is too short (minimum is 8 characters)'],
    });
    expect(validateRegistration({ email: 'a@b.c', password: 'long-password', password_confirmation: 'y', accept_terms: true })?.fields).toEqual({
      password_confirmation: ['doesnt-match'],
    });
    expect(validateRegistration({ email: 'a@b.c', password: 'long-password', password_confirmation: 'long-password', accept_terms: true })).toBeNull();
  });

  it('a blank sign-up: every message under its field, no banner, the first field focused (issue 22 item 11)', async () => {
    const { fn } = mockFetch();
    renderScreen(<Register />, { path: '/user/register', url: '/user/register' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(field(/^Email/)).toHaveAttribute('aria-invalid', 'true'));
    for (const label of [/^Email/, /^Password$/, /^Password confirmation/]) expect(field(label)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText("can't be blank")).toHaveLength(3);
    expect(screen.getByText('must be accepted')).toBeInTheDocument();
    expect(screen.queryByTestId('error-alert')).toBeNull();
    expect(screen.queryByText('Your request failed')).toBeNull();
    expect(field(/^Email/)).toHaveFocus();
    expect(fn.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toEqual([]);
  });

  it('shows the three errors under their fields and sends nothing', async () => {
    const { fn } = mockFetch();
    renderScreen(<Register />, { path: '/user/register', url: '/user/register' });
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Sign up' });
    await user.type(field(/^Password$/), 'one-password');
    await user.type(field(/^Password confirmation/), 'another');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByText("can't be blank")).toBeInTheDocument();
    expect(screen.getByText("doesn't match")).toBeInTheDocument();
    expect(screen.getByText('must be accepted')).toBeInTheDocument();
    expect(field(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('error-alert')).toBeNull();
    expect(fn.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toEqual([]);
  });

  it('links the terms, privacy and refund policies', async () => {
    mockFetch();
    renderScreen(<Register />, { path: '/user/register', url: '/user/register' });
    await screen.findByRole('button', { name: 'Sign up' });
    expect(screen.getByRole('link', { name: 'terms and conditions' })).toHaveAttribute('href', '/terms-and-conditions.html');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-policy.html');
    expect(screen.getByRole('link', { name: 'refund policy' })).toHaveAttribute('href', '/refund-policy.html');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/user/login');
  });

  it('registers with a generated usr- id, signs in and opens the app; server field errors show under fields', async () => {
    let taken = true;
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST' && c.path === '/api/_users') {
        if (taken) {
          taken = false;
          return json(409, { error: 'conflict', reason: 'Email has already been taken', fields: { email: ['has already been taken'] } });
        }
        return json(201, { ok: true, id: (c.body as { _id: string })._id, rev: '1-a' });
      }
      if (c.method === 'POST' && c.path === '/api/_session') return json(200, { ok: true, name: 'usr-1', roles: [] });
      if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: 'usr-1', roles: ['usr-1'] } });
      return undefined;
    });
    const { router } = renderScreen(<Register />, { path: '/user/register', url: '/user/register' });
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Sign up' });
    await user.type(field(/^Email/), 'ana@example.com');
    await user.type(field(/^Full name/), 'Ana Souza');
    await user.type(field(/^Password$/), 'long-password');
    await user.type(field(/^Password confirmation/), 'long-password');
    await user.click(within(screen.getByRole('form')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('has already been taken')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    const reg = calls.find((c) => c.method === 'POST' && c.path === '/api/_users')!;
    expect(reg.body).toMatchObject({
      fullname: 'Ana Souza',
      unconfirmed_email: 'ana@example.com',
      password: 'long-password',
      password_confirmation: 'long-password',
      locale: 'en',
    });
    expect((reg.body as { _id: string })._id).toMatch(/^usr-[0-9a-f]{32}$/);
  });
});
