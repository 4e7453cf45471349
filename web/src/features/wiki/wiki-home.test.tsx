// /wiki against a fetch double: recents and categories, then a search whose
// highlighted title and snippet come from the server.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setActiveDb } from '../../lib/active-db';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as Wiki } from './routes/Wiki';

const ACC = 'acc-0123456789abcdef0123456789abcdef';

beforeEach(() => setActiveDb(ACC));

describe('/wiki', () => {
  it('lists recents and categories, and searches with highlighted snippets', async () => {
    mockFetch((c: Call) => {
      if (c.path.startsWith(`/api/${ACC}/_wiki/recent`))
        return json(200, {
          changed: [{ id: 'han-1', title: 'Forklift', updated_at: '2026-01-01T00:00:00Z', updated_by: { _id: 'usr-1', label: 'Ana Souza' } }],
          viewed: [{ id: 'han-2', title: 'Battery' }],
        });
      if (c.path === `/api/${ACC}/_wiki/categories`) return json(200, { rows: [{ category: 'ops', count: 3 }] });
      if (c.path.startsWith(`/api/${ACC}/_wiki/search?q=fork`))
        return json(200, { total: 1, rows: [{ id: 'han-1', title: 'Forklift', title_html: '<mark>Fork</mark>lift', snippet: 'the <mark>fork</mark> &lt;b&gt;', categories: ['ops'] }] });
      return undefined;
    });
    renderScreen(<Wiki />, { path: '/wiki', url: '/wiki', handle: { name: 'wiki#index', access: 'account' } });
    expect(await within(await screen.findByTestId('wiki-recent-changed')).findByText('Forklift')).toBeInTheDocument();
    expect(within(screen.getByTestId('wiki-recent-viewed')).getByText('Battery')).toBeInTheDocument();
    // Issue 22 item 13: the author by name, never "[object Object]".
    expect(screen.getByTestId('wiki-recent-changed')).toHaveTextContent('Ana Souza');
    expect(screen.getByTestId('wiki-recent-changed')).not.toHaveTextContent('[object Object]');
    expect(await within(screen.getByTestId('wiki-categories')).findByRole('button', { name: /ops/ })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search the wiki'), 'fork');
    const results = await screen.findByTestId('wiki-results', {}, { timeout: 3000 });
    const link = within(results).getByRole('link');
    expect(link.innerHTML).toBe('<mark>Fork</mark>lift');
    expect(link).toHaveAttribute('href', `/account/${ACC}/handbooks/han-1`);
    expect(within(results).getByText(/the/).innerHTML).toBe('the <mark>fork</mark> &lt;b&gt;');
  });
});
