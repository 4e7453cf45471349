// The wiki screens against a fetch double: a page with its links both ways
// and a version diff, and an edit whose save meets a newer revision (409).

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as PageForm } from './routes/PageForm';
import { Component as PageShow } from './routes/PageShow';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const ID = 'han-0123456789abcdef0123456789abcdef';

describe('wiki page', () => {
  it('shows the rendered page, links to, linked by and a version diff', async () => {
    mockFetch((c: Call) => {
      if (c.path === `/api/${ACC}/_wiki/pages/${ID}/html`)
        return json(200, {
          id: ID,
          rev: '2-b',
          title: 'Forklift',
          categories: ['ops'],
          html: '<p>Check the <a href="/account/x/handbooks/han-1">Battery</a></p>',
          links: [{ id: 'han-1', title: 'Battery' }],
          wanted: ['Tyres'],
          linked_by: [{ id: 'han-2', title: 'Warehouse' }],
        });
      if (c.path === `/api/${ACC}/_wiki/pages/${ID}/versions`)
        return json(200, { id: ID, versions: [{ rev: '2-b', at: '2026-01-02T00:00:00Z', title: 'Forklift', current: true }, { rev: '1-a', at: '2026-01-01T00:00:00Z', title: 'Forklift' }] });
      if (c.path === `/api/${ACC}/_wiki/pages/${ID}/versions/1-a`) return json(200, { rev: '1-a', title: 'Forklift', content: 'one\ntwo' });
      if (c.path === `/api/${ACC}/${ID}`) return json(200, { _id: ID, _rev: '2-b', title: 'Forklift', content: 'one\nthree' });
      return undefined;
    });
    renderScreen(<PageShow />, { path: '/account/:account_id/handbooks/:record_id', url: `/account/${ACC}/handbooks/${ID}`, handle: { name: 'handbooks#show', access: 'account', set: 'handbooks' } });
    expect(await screen.findByTestId('page-html')).toHaveTextContent('Check the Battery');
    expect(within(screen.getByTestId('links-to')).getByText('Battery')).toBeInTheDocument();
    expect(within(screen.getByTestId('links-to')).getByText('Tyres')).toBeInTheDocument();
    expect(within(screen.getByTestId('linked-by')).getByText('Warehouse')).toBeInTheDocument();
    const v = await screen.findByTestId('wiki-version-1-a');
    await userEvent.click(within(v).getByRole('button'));
    const diff = await screen.findByTestId('wiki-version-diff');
    expect(diff).toHaveTextContent('+1 / −1 lines');
    expect(screen.getByTestId('wiki-version-restore')).toBeInTheDocument();
  });

  it('opens the conflict view on a 409 and keeps mine on the current revision', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.method === 'GET' && c.path === `/api/${ACC}/${ID}`) return json(200, { _id: ID, _rev: '1-a', klass: 'Handbook', title: 'Forklift', content: 'old', content_type: 'markdown' });
      if (c.method === 'PUT' && c.path === `/api/${ACC}/${ID}?rev=1-a`) return json(409, { error: 'conflict', reason: 'Document update conflict.' });
      if (c.path === `/api/${ACC}/_wiki/pages/${ID}/conflict?rev=1-a`)
        return json(200, { id: ID, conflict: true, current: { _id: ID, _rev: '2-c', klass: 'Handbook', title: 'Forklift', content: 'theirs', uri: 'https://maker.example/manual' }, current_by: { _id: 'usr-1', label: 'Bia' }, ancestor: null, changes: [] });
      if (c.method === 'PUT' && c.path === `/api/${ACC}/${ID}?rev=2-c`) return json(201, { ok: true, id: ID, rev: '3-d' });
      if (c.path.startsWith(`/api/${ACC}/_wiki/preview`)) return json(200, { html: '<p>x</p>', links: [], wanted: [] });
      return undefined;
    });
    renderScreen(<PageForm />, { path: '/account/:account_id/handbooks/:record_id/edit', url: `/account/${ACC}/handbooks/${ID}/edit`, handle: { name: 'handbooks#edit', access: 'account', set: 'handbooks' } });
    const text = await screen.findByTestId('wiki-content');
    await userEvent.clear(text);
    await userEvent.type(text, 'mine');
    await userEvent.click(screen.getByTestId('wiki-save'));
    const view = await screen.findByTestId('conflict-view');
    expect(await within(view).findByTestId('conflict-theirs')).toHaveTextContent('theirs');
    expect(within(view).getByTestId('conflict-mine')).toHaveTextContent('mine');
    expect(within(view).getByText(/saved by Bia/)).toBeInTheDocument();
    await userEvent.click(within(view).getByTestId('conflict-keep-mine'));
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument();
    const last = calls.filter((c) => c.method === 'PUT').pop()!;
    expect(last.path).toBe(`/api/${ACC}/${ID}?rev=2-c`);
    expect(last.body).toMatchObject({ _id: ID, _rev: '2-c', content: 'mine', uri: 'https://maker.example/manual' });
  });

  it('completes [[ titles from the keyboard and saves a new page', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.path.startsWith(`/api/${ACC}/_wiki/titles?q=Fo`)) return json(200, { rows: [{ id: 'han-1', title: 'Forest' }, { id: 'han-2', title: 'Forklift' }] });
      if (c.path.startsWith(`/api/${ACC}/_wiki/preview`)) return json(200, { html: '<p>x</p>', links: [], wanted: [] });
      if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(201, { ok: true, id: ID, rev: '1-a' });
      return undefined;
    });
    renderScreen(<PageForm />, { path: '/account/:account_id/handbooks/new', url: `/account/${ACC}/handbooks/new?title=Dock`, handle: { name: 'handbooks#new', access: 'account', set: 'handbooks' } });
    expect(screen.getByTestId('wiki-title')).toHaveValue('Dock');
    const text = screen.getByTestId('wiki-content');
    await userEvent.type(text, 'see [[[[Fo');
    const list = await screen.findByTestId('wiki-complete', {}, { timeout: 3000 });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['Forest', 'Forklift']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(text).toHaveValue('see [[Forklift]]');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}`)!;
    expect(post.body).toMatchObject({ klass: 'Handbook', title: 'Dock', content: 'see [[Forklift]]', content_type: 'markdown', categories: [] });
  });
});
