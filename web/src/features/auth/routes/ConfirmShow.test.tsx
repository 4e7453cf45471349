import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen } from '../../../test/utils';
import { Component as ConfirmShow } from './ConfirmShow';

afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'tok_abc';

describe('confirm#show', () => {
  it('confirms and says so', async () => {
    mockFetch((c) => (c.method === 'PUT' && c.path === '/api/_users/_confirmation' ? json(200, { _id: 'usr-1', email: 'ana@example.com' }) : undefined));
    renderScreen(<ConfirmShow />, { path: '/user/confirm/:token', url: `/user/confirm/${TOKEN}` });
    expect(await screen.findByTestId('confirmed')).toHaveTextContent('ana@example.com');
  });

  // A new address is confirmed only by its signed-in requester (issue 8):
  // signed out, the page offers to sign in and come back to the same link.
  it('asks to sign in and come back when the link is for a new address', async () => {
    mockFetch((c) =>
      c.method === 'PUT' && c.path === '/api/_users/_confirmation' ? json(401, { error: 'unauthorized', reason: 'You are not logged in.' }) : undefined,
    );
    renderScreen(<ConfirmShow />, { path: '/user/confirm/:token', url: `/user/confirm/${TOKEN}` });
    const link = await screen.findByRole('link', { name: 'Sign in to confirm your new email' });
    expect(link).toHaveAttribute('href', `/user/login?return=${encodeURIComponent(`/user/confirm/${TOKEN}`)}`);
  });

  it('explains a link followed in someone else\'s session', async () => {
    mockFetch((c) =>
      c.method === 'PUT' && c.path === '/api/_users/_confirmation'
        ? json(403, { error: 'forbidden', reason: 'Sign in as the user who asked for this change to confirm it' })
        : undefined,
    );
    renderScreen(<ConfirmShow />, { path: '/user/confirm/:token', url: `/user/confirm/${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign in with the account that asked for this change to confirm it.');
  });
});
