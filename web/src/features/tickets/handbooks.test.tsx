// The wiki's handbooks on the desk: a category's show screen lists the pages
// filed under its name (the wiki's search with that category), links to a new
// page in it, and hides the panel when the wiki does not answer.

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as CategoryShow } from './routes/CategoryShow';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const CAT = 'cat-0123456789abcdef0123456789abcdef';
const route = { path: '/account/:account_id/categories/:record_id', url: `/account/${ACC}/categories/${CAT}`, handle: { name: 'categories#show', access: 'account' as const, set: 'categories' } };

function backend(wiki: (c: Call) => Response | undefined) {
  return mockFetch((c: Call) => {
    if (c.method === 'GET' && c.path === `/api/${ACC}/${CAT}`)
      return json(200, { _id: CAT, _rev: '1-a', klass: 'Category', name: 'Screens', color: '#3b82f6', checklist: 'Test touch\nClean' });
    if (c.path.startsWith(`/api/${ACC}/_wiki/search`)) return wiki(c);
    if (c.method === 'POST' && c.path === `/api/${ACC}/_find`) return json(200, { docs: [] });
    return undefined;
  });
}

describe('handbooks on the desk', () => {
  it("lists the category's handbooks with a link to write one", async () => {
    const { calls } = backend(() => json(200, { total: 12, rows: [{ id: 'han-1', title: 'Screen replacement', title_html: 'Screen replacement' }] }));
    renderScreen(<CategoryShow />, route);
    const panel = await screen.findByTestId('handbooks-panel');
    expect(within(panel).getByText('Handbooks for Screens')).toBeInTheDocument();
    expect(await within(panel).findByRole('link', { name: 'Screen replacement' })).toHaveAttribute('href', `/account/${ACC}/handbooks/han-1`);
    expect(within(panel).getByRole('link', { name: '11 more in the wiki' })).toHaveAttribute('href', '/wiki?category=Screens');
    expect(within(panel).getByTestId('handbooks-new')).toHaveAttribute('href', `/account/${ACC}/handbooks/new?category=Screens`);
    expect(within(screen.getByTestId('category-checklist')).getAllByRole('listitem').map((l) => l.textContent)).toEqual(['Test touch', 'Clean']);
    const search = calls.find((c) => c.path.startsWith(`/api/${ACC}/_wiki/search`))!;
    expect(new URL(search.path, 'http://x').searchParams.get('category')).toBe('Screens');
  });

  it('says when no handbook is filed there, and hides the panel when the wiki fails', async () => {
    backend(() => json(200, { total: 0, rows: [] }));
    const first = renderScreen(<CategoryShow />, route);
    expect(await screen.findByText('No handbook is filed under this category yet.')).toBeInTheDocument();
    first.unmount();
    backend(() => json(404, { error: 'not_found', reason: 'missing' }));
    renderScreen(<CategoryShow />, route);
    await screen.findByTestId('category-checklist');
    await waitFor(() => expect(screen.queryByTestId('handbooks-panel')).toBeNull());
  });
});
