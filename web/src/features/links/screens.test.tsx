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

  it("reads the title from the page, says why when it cannot, and lets it be typed", async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.path === `/api/${ACC}/_find`) return json(200, { docs: [] });
      if (c.method === 'POST' && c.path === `/api/${ACC}/_links/title`) {
        const url = (c.body as { url: string }).url;
        if (url === 'https://maker.example/manual') return json(200, { url, title: 'Maker manual <v2>' });
        return json(422, { error: 'unprocessable_entity', reason: 'Validation failed', fields: { url: ['This is not a web page', 'application/pdf'] } });
      }
      if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(201, { ok: true, id: 'bkm-3', rev: '1-a' });
      return undefined;
    });
    renderScreen(<Bookmarks />, { path: '/account/:account_id/bookmarks', url: `/account/${ACC}/bookmarks`, handle: { name: 'bookmarks#index', access: 'account', set: 'bookmarks' } });
    await userEvent.click(await screen.findByTestId('bookmark-new'));
    await userEvent.type(screen.getByTestId('bookmark-url'), 'https://maker.example/manual');
    await userEvent.tab(); // leaving the address with no title reads it
    await vi.waitFor(() => expect(screen.getByTestId('bookmark-title')).toHaveValue('Maker manual <v2>'));
    // A PDF: the reason under the title, which stays for the user to type.
    await userEvent.clear(screen.getByTestId('bookmark-url'));
    await userEvent.type(screen.getByTestId('bookmark-url'), 'https://maker.example/manual.pdf');
    await userEvent.clear(screen.getByTestId('bookmark-title'));
    await userEvent.click(screen.getByTestId('bookmark-fetch-title'));
    expect(await screen.findByText(/No title read from the page \(this is not a web page, application\/pdf\): type one\./)).toBeInTheDocument();
    expect(screen.getByTestId('bookmark-title')).toHaveValue('');
    await userEvent.type(screen.getByTestId('bookmark-title'), 'Manual (PDF)');
    await userEvent.click(screen.getByTestId('bookmark-save'));
    await vi.waitFor(() => {
      const p = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
      if (!p) throw new Error('no POST yet');
      expect(p.body).toMatchObject({ klass: 'Bookmark', url: 'https://maker.example/manual.pdf', title: 'Manual (PDF)' });
    });
  });

  it('hides "Fetch title" when the server cannot fetch titles', async () => {
    mockFetch((c: Call) => {
      if (c.path === `/api/${ACC}/_find`) return json(200, { docs: [] });
      if (c.path === `/api/${ACC}/_links/title`) return json(404, { error: 'not_found', reason: 'Titles cannot be fetched on this server: enter one' });
      return undefined;
    });
    renderScreen(<Bookmarks />, { path: '/account/:account_id/bookmarks', url: `/account/${ACC}/bookmarks`, handle: { name: 'bookmarks#index', access: 'account', set: 'bookmarks' } });
    await userEvent.click(await screen.findByTestId('bookmark-new'));
    await userEvent.type(screen.getByTestId('bookmark-url'), 'https://maker.example/');
    await userEvent.click(screen.getByTestId('bookmark-fetch-title'));
    await vi.waitFor(() => expect(screen.queryByTestId('bookmark-fetch-title')).toBeNull());
    expect(screen.queryByText(/No title read/)).toBeNull();
  });
});
