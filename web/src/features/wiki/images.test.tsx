// Images pasted into the page editor: named, uploaded to the drive's "wiki"
// folder (made on first use) and linked where the caret was.

import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { imageMarkdown, imageName } from './api/images';
import { Component as PageForm } from './routes/PageForm';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const DIR = 'fle-00000000000000000000000000000001';
const IMG = 'fle-00000000000000000000000000000002';

describe('wiki images', () => {
  it('names uploads and writes their Markdown', () => {
    const now = new Date('2026-11-25T22:49:30Z');
    expect(imageName({ name: 'image.png', type: 'image/png' }, now, 'ab12')).toBe('pasted-2026-11-25-22-49-30-ab12.png');
    expect(imageName({ name: 'board [v2].jpeg', type: 'image/jpeg' }, now, 'ab12')).toBe('board [v2]-ab12.jpg');
    expect(imageName({ name: 'a/b.webp', type: 'image/webp' }, now, 'x')).toBe('a-b-x.webp');
    expect(imageMarkdown(ACC, IMG, 'board [v2]-ab12.jpg')).toBe(`![board \\[v2\\]-ab12](/api/${ACC}/_drive/files/${IMG}/content?inline=true)`);
  });

  it('uploads a pasted image into the wiki folder and links it at the caret', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.path.startsWith(`/api/${ACC}/_drive/dirs/root`)) return json(200, { dir: null, path: [], entries: [{ _id: 'fle-x', name: 'other', kind: 'dir' }], next: null });
      if (c.method === 'POST' && c.path === `/api/${ACC}`) {
        const b = c.body as { kind: string };
        return b.kind === 'dir' ? json(201, { ok: true, id: DIR, rev: '1-a' }) : json(201, { ok: true, id: IMG, rev: '1-b' });
      }
      if (c.method === 'PUT' && c.path === `/api/${ACC}/_drive/files/${IMG}/content?rev=1-b`) return json(201, { ok: true, id: IMG, rev: '2-c' });
      if (c.path.startsWith(`/api/${ACC}/_wiki/preview`)) return json(200, { html: '<p>x</p>', links: [], wanted: [] });
      return undefined;
    });
    renderScreen(<PageForm />, { path: '/account/:account_id/handbooks/new', url: `/account/${ACC}/handbooks/new`, handle: { name: 'handbooks#new', access: 'account', set: 'handbooks' } });
    const text = screen.getByTestId('wiki-content') as HTMLTextAreaElement;
    fireEvent.change(text, { target: { value: 'Before\nAfter' } });
    text.setSelectionRange(7, 7);
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'image.png', { type: 'image/png' });
    fireEvent.paste(text, { clipboardData: { files: [file], types: ['Files'] } });
    await vi.waitFor(() => expect(text.value).toMatch(new RegExp(`^Before\\n!\\[pasted-[0-9-]+-[0-9a-f]+\\]\\(/api/${ACC}/_drive/files/${IMG}/content\\?inline=true\\)After$`)));
    const posts = calls.filter((c) => c.method === 'POST' && c.path === `/api/${ACC}`);
    expect(posts.map((p) => p.body)).toMatchObject([
      { klass: 'CloudFile', kind: 'dir', name: 'wiki', dir_id: '' },
      { klass: 'CloudFile', kind: 'file', dir_id: DIR },
    ]);
  });

  it('refuses what is not an image, saying so', async () => {
    mockFetch((c: Call) => (c.path.startsWith(`/api/${ACC}/_wiki/preview`) ? json(200, { html: '', links: [], wanted: [] }) : undefined));
    renderScreen(<PageForm />, { path: '/account/:account_id/handbooks/new', url: `/account/${ACC}/handbooks/new`, handle: { name: 'handbooks#new', access: 'account', set: 'handbooks' } });
    const text = screen.getByTestId('wiki-content');
    fireEvent.drop(text, { dataTransfer: { files: [new File(['x'], 'notes.exe', { type: 'application/octet-stream' })], types: ['Files'] } });
    expect(await screen.findByTestId('wiki-image-error')).toHaveTextContent('Only images');
    expect(text).toHaveValue('');
  });
});
