// The drive's folder screen against a fetch double: path, rows, quota,
// selection by keyboard, and the new folder's error under the field.

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setActiveDb } from '../../lib/active-db';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { Component as Disk } from './routes/Disk';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const DIR = { _id: 'fle-d1', _rev: '1-a', klass: 'CloudFile', kind: 'dir', name: 'Docs', dir_id: '' };
const FILE = { _id: 'fle-f1', _rev: '1-a', klass: 'CloudFile', kind: 'file', name: 'a.pdf', dir_id: 'fle-d1', size: 1500, starred: true, color: '#ff0000' };

beforeEach(() => setActiveDb(ACC));
afterEach(() => setActiveDb(null));

describe('disk#show', () => {
  it('shows the path, the entries and the quota, selects by keyboard, and refuses a taken folder name under the field', async () => {
    const { calls } = mockFetch((call: Call) => {
      const c = { ...call, path: call.path.split('?')[0] };
      if (c.path === `/api/${ACC}/_drive/dirs/fle-d1`) return json(200, { dir: DIR, path: [], entries: [{ ...DIR, _id: 'fle-d2', name: 'Sub', dir_id: 'fle-d1' }, FILE], next: null });
      if (c.path === `/api/${ACC}/_drive/usage`) return json(200, { bytes: 1500, limit: 1_000_000_000, plan: 'free', files: 1, dirs: 2, trash_bytes: 0, trash_entries: 0 });
      if (c.path === `/api/${ACC}/_drive/files/fle-f1/versions`) return json(200, { id: 'fle-f1', rev: '1-a', name: 'a.pdf', max_versions: 3, versions: [] });
      if (c.method === 'POST' && c.path === `/api/${ACC}`) return json(409, { error: 'conflict', reason: 'Sub already exists in this folder' });
      return undefined;
    });
    renderScreen(<Disk />, { path: '/disk/:dir_id', url: '/disk/fle-d1', handle: { name: 'disk#show', access: 'account' } });
    const row = await screen.findByTestId('disk-row-fle-f1');
    expect(row).toHaveTextContent('a.pdf');
    expect(row).toHaveTextContent('1.5 kB');
    expect(screen.getByTestId('disk-list')).toHaveTextContent('Sub');
    await waitFor(() => expect(screen.getByTestId('disk-quota')).toHaveTextContent('1.5 kB used of 1.0 GB'));
    row.focus();
    await userEvent.keyboard(' ');
    expect(row).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByTestId('versions-panel')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('disk-new-folder'));
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Type a name.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Folder name'), 'Sub');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Sub already exists in this folder')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
    expect(post?.body).toEqual({ klass: 'CloudFile', kind: 'dir', name: 'Sub', dir_id: 'fle-d1' });
  });
});
