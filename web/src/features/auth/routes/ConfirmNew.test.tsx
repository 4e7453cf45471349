import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen } from '../../../test/utils';
import { Component as ConfirmNew } from './ConfirmNew';

afterEach(() => vi.unstubAllGlobals());

const session = (expired: boolean) => (c: { method: string; path: string }) =>
  c.method === 'GET' && c.path === '/api/_session'
    ? json(200, { ok: true, confirmation_expired: expired, userCtx: { name: 'usr-1', roles: ['usr-1'], locale: 'en' } })
    : undefined;

describe('confirm#new', () => {
  it('says access comes back once confirmed when the deadline is over (SPEC §9)', async () => {
    mockFetch(session(true));
    renderScreen(<ConfirmNew />, { path: '/user/confirm/new', url: '/user/confirm/new' });
    expect(await screen.findByTestId('confirm-expired')).toHaveTextContent('The time to confirm it is over');
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });

  it('shows no notice before the deadline', async () => {
    mockFetch(session(false));
    renderScreen(<ConfirmNew />, { path: '/user/confirm/new', url: '/user/confirm/new' });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByTestId('confirm-expired')).toBeNull();
  });
});
