// The links screen against a fetch double: rows, star, tag filter, add.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as Bookmarks } from './routes/Bookmarks';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const B1 = { _id: 'bkm-1', _rev: '1-a', klass: 'Bookmark', url: 'https://go.dev/', title: 'Go', tags: ['dev'], starred: false, added_at: '2026-01-01T00:00:00Z' };
const B2 = { _id: 'bkm-2', _rev: '1-a', klass: 'Bookmark', url: 'https://example.com/', title: 'Example', tags: 'misc, old' };

describe('links', () => {
  it('lists, stars, filters by tag and adds a link', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.path === `/api/${ACC}/_find`) return json(200, { docs: [B1, B2] });
      if (c.method === 'PUT' && c.path === `/api/${ACC}/bkm-1?rev=1-a`) return json(201, { ok: true, id: 'bkm-1', rev: '2-b' });
      if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(201, { ok: true, id: 'bkm-3', rev: '1-a' });
      return undefined;
    });
    renderScreen(<Bookmarks />, { path: '/account/:account_id/bookmarks', url: `/account/${ACC}/bookmarks`, handle: { name: 'bookmarks#index', access: 'account', set: 'bookmarks' } });
    const row = await screen.findByTestId('bookmark-row-bkm-1');
    expect(within(row).getByRole('link', { name: /Go/ })).toHaveAttribute('href', 'https://go.dev/');
    expect(within(screen.getByTestId('bookmark-row-bkm-2')).getByText('old')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Star Go' }));
    const put = await vi.waitFor(() => {
      const p = calls.find((c) => c.method === 'PUT');
      if (!p) throw new Error('no PUT yet');
      return p;
    });
    expect(put.body).toMatchObject({ _id: 'bkm-1', starred: true });
    await userEvent.click(within(row).getByRole('button', { name: 'Show the links tagged dev' }));
    await vi.waitFor(() => {
      const finds = calls.filter((c) => c.path === `/api/${ACC}/_find` && (c.body as { selector: Record<string, unknown> }).selector.tags);
      if (!finds.length) throw new Error('no tag query');
    });
    await userEvent.click(screen.getByTestId('bookmark-new'));
    await userEvent.type(screen.getByTestId('bookmark-url'), 'notaurl');
    await userEvent.click(screen.getByTestId('bookmark-save'));
    expect(await screen.findByText('must be an http or https address')).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId('bookmark-url'));
    await userEvent.type(screen.getByTestId('bookmark-url'), 'https://vitest.dev/');
    await userEvent.click(screen.getByTestId('bookmark-save'));
    await vi.waitFor(() => {
      const p = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
      if (!p) throw new Error('no POST yet');
      expect(p.body).toMatchObject({ klass: 'Bookmark', url: 'https://vitest.dev/', tags: [], starred: false });
    });
  });
});
