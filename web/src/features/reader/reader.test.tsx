// The reader's screens and helpers against a fetch double: shortcuts,
// filters from the URL, OPML parsing, the feed list (filters, pages, toggles
// with mark-as-read-on-opening, shortcuts, the help overlay), and the
// subscription form's server errors.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderScreen, type Call } from '../../test/utils';
import { parseOpml } from './api/opml';
import { patchOf } from './api/toggle';
import { FeedList } from './components/FeedList';
import { parseFilters } from './components/filters';
import { Enclosures, formatOf, isAudio } from './components/Enclosures';
import { shortcutOf } from './components/shortcuts';
import { Component as SubscriptionNew } from './routes/SubscriptionNew';

const ACC = 'acc-0123456789abcdef0123456789abcdef';
const ME = 'usr-0123456789abcdef0123456789abcdef';
const LABEL = 'rlb-0123456789abcdef0123456789abcdef';

describe('shortcuts', () => {
  it('maps the keys, not with modifiers and not while typing', () => {
    expect(shortcutOf({ key: 'j' })).toBe('next');
    expect(shortcutOf({ key: 'k' })).toBe('previous');
    expect(shortcutOf({ key: 'o' })).toBe('open');
    expect(shortcutOf({ key: 'm' })).toBe('toggleRead');
    expect(shortcutOf({ key: 's' })).toBe('toggleStar');
    expect(shortcutOf({ key: 'v' })).toBe('original');
    expect(shortcutOf({ key: 'p' })).toBe('play');
    expect(shortcutOf({ key: 'r' })).toBe('refresh');
    expect(shortcutOf({ key: '?' })).toBe('help');
    expect(shortcutOf({ key: 'x' })).toBeNull();
    expect(shortcutOf({ key: 'r', ctrlKey: true })).toBeNull();
    expect(shortcutOf({ key: 'j', metaKey: true })).toBeNull();
    expect(shortcutOf({ key: 'j', target: document.createElement('input') })).toBeNull();
    expect(shortcutOf({ key: 'j', target: document.createElement('select') })).toBeNull();
    expect(shortcutOf({ key: 'j', target: document.createElement('button') })).toBe('next');
  });
});

describe('filters', () => {
  it('reads the URL, unread by default, ignoring what is not a filter', () => {
    expect(parseFilters(new URLSearchParams(''))).toEqual({ read: 'unread', starred: 'all', label: '', page: 1 });
    expect(parseFilters(new URLSearchParams(`read=all&starred=starred&label=${LABEL}&page=3`))).toEqual({ read: 'all', starred: 'starred', label: LABEL, page: 3 });
    expect(parseFilters(new URLSearchParams('read=maybe&starred=x&label=<script>&page=-2'))).toEqual({ read: 'unread', starred: 'all', label: '', page: 1 });
  });

  it('toggles change one flag each', () => {
    expect(patchOf('read')).toEqual({ read: true });
    expect(patchOf('unread')).toEqual({ read: false });
    expect(patchOf('star')).toEqual({ starred: true });
    expect(patchOf('unstar')).toEqual({ starred: false });
  });
});

describe('OPML', () => {
  it('nested outlines become labels; a feed in two places is one feed with both', () => {
    const out = parseOpml(`<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
      <outline text="Tech"><outline text="Go"><outline type="rss" text="Go Blog" xmlUrl="https://go.dev/blog/feed.atom" htmlUrl="https://go.dev/blog"/></outline>
      <outline type="rss" title="Both" text="Both" xmlUrl="https://both.example/feed"/></outline>
      <outline text="News"><outline type="rss" text="Both again" xmlUrl="https://both.example/feed"/></outline>
      <outline type="rss" text="Loose" xmlUrl="https://loose.example/rss"/></body></opml>`);
    expect(out).toEqual([
      { url: 'https://go.dev/blog/feed.atom', title: 'Go Blog', html_url: 'https://go.dev/blog', labels: ['Tech', 'Go'] },
      { url: 'https://both.example/feed', title: 'Both', html_url: '', labels: ['Tech', 'News'] },
      { url: 'https://loose.example/rss', title: 'Loose', html_url: '', labels: [] },
    ]);
  });

  it('refuses what is not OPML', () => {
    expect(() => parseOpml('<html><body>hi</body></html>')).toThrow();
    expect(() => parseOpml('not xml at all <')).toThrow();
  });
});

function item(n: number, extra: Record<string, unknown> = {}) {
  return {
    _id: `rit-${String(n).padStart(32, '0')}`,
    _rev: '1-a',
    klass: 'ReaderItem',
    title: `Item ${n}`,
    url: `https://blog.example/${n}`,
    summary: `Summary ${n}`,
    reader_subscription: { _id: 'rsb-1', title: 'Bike blog' },
    reader_label_ids: [LABEL],
    read: false,
    starred: false,
    posted_at: '2026-11-20T10:00:00.000Z',
    has_content: true,
    ...extra,
  };
}

const EPISODE = { url: 'https://cast.example/media/ep1.mp3', type: 'audio/mpeg', length: 24986239 };

function backend(opts: { markRead?: boolean; episode?: boolean } = {}) {
  const state = { items: Array.from({ length: 10 }, (_, i) => item(i, i === 0 && opts.episode ? { enclosures: [EPISODE] } : {})) };
  const m = mockFetch((c: Call) => {
    if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME, ACC], locale: 'en' } });
    if (c.path.startsWith(`/api/${ACC}/_design/reader/_view/feed`)) {
      return json(200, { total_rows: 23, offset: 0, page: 1, pages: 3, limit: 10, rows: state.items.map((d) => ({ id: d._id, key: d.posted_at, value: null, doc: d })) });
    }
    if (c.path.startsWith(`/api/${ACC}/_design/reader/_view/unread-by-label`)) return json(200, { rows: [{ key: null, value: 23 }, { key: LABEL, value: 4 }] });
    if (c.path === `/api/${ACC}/_find` && JSON.stringify(c.body).includes('ReaderLabel')) {
      return json(200, { docs: [{ _id: LABEL, _rev: '1-a', klass: 'ReaderLabel', name: 'Bikes' }] });
    }
    if (c.path === `/api/${ME}/_find`) {
      return json(200, { docs: opts.markRead === false ? [{ _id: 'adj-1', _rev: '1-a', klass: 'Adjustment', key: 'reader_mark_as_read_on_opening', value: false }] : [] });
    }
    const toggle = /^\/api\/acc-[0-9a-f]+\/_design\/status\/_update\/(read|unread|star|unstar)\/(rit-\d+)$/.exec(c.path);
    if (toggle && c.method === 'PUT') return json(200, { ok: true, id: toggle[2], rev: '2-b' });
    const doc = /^\/api\/acc-[0-9a-f]+\/(rit-\d+)$/.exec(c.path);
    if (doc) return json(200, { ...state.items.find((d) => d._id === doc[1]), content: '<p>Full <b>content</b></p>', content_type: 'html' });
    if (c.path === `/api/${ACC}/_reader/refresh`) return json(200, { ok: true, feeds: 2, fetched: 1, not_modified: 1, failed: 0, items: 3, partial: false });
    return undefined;
  });
  return m;
}

const at = { path: '/account/:account_id/reader_items', url: `/account/${ACC}/reader_items` };

describe('feed list', () => {
  it('lists the page with its total and pages, filters by label into the URL', async () => {
    const { calls } = backend();
    const { router } = renderScreen(<FeedList db={ACC} />, at);
    expect(await screen.findAllByTestId('feed-item')).toHaveLength(10);
    expect(screen.getByTestId('feed-total')).toHaveTextContent('Items: 23');
    expect(calls.some((c) => c.path.includes('read=unread') && c.path.includes('starred=all') && c.path.includes('page=1') && c.path.includes('limit=10'))).toBe(true);
    const label = screen.getByTestId('filter-label');
    await waitFor(() => expect(within(label).getByText('Bikes (4)')).toBeInTheDocument());
    await userEvent.selectOptions(label, LABEL);
    await waitFor(() => expect(router.state.location.search).toBe(`?label=${LABEL}`));
    await waitFor(() => expect(calls.some((c) => c.path.includes(`label=${LABEL}`))).toBe(true));
    // Pages: 3, with next.
    await userEvent.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() => expect(router.state.location.search).toContain('page=2'));
  });

  it('opening an item shows its content and marks it read (the setting is on by default); star is separate', async () => {
    const { calls } = backend();
    renderScreen(<FeedList db={ACC} />, at);
    const first = (await screen.findAllByTestId('feed-item'))[0]!;
    await userEvent.click(within(first).getByTestId('item-title'));
    expect(await within(first).findByTestId('item-content')).toHaveTextContent('Full content');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith(`/read/${item(0)._id}`))).toBe(true));
    expect(within(first).getByTestId('item-title')).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(within(first).getByTestId('toggle-star'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith(`/star/${item(0)._id}`))).toBe(true));
    expect(calls.some((c) => c.path.endsWith(`/unread/${item(0)._id}`))).toBe(false);
  });

  it('with the setting off, opening does not mark read', async () => {
    const { calls } = backend({ markRead: false });
    renderScreen(<FeedList db={ACC} />, at);
    const box = () => {
      const el = screen.getByTestId('mark-read-on-opening');
      return el.tagName === 'INPUT' ? el : el.querySelector('input');
    };
    await waitFor(() => expect(box()).not.toBeChecked());
    const first = (await screen.findAllByTestId('feed-item'))[0]!;
    await userEvent.click(within(first).getByTestId('item-title'));
    await within(first).findByTestId('item-content');
    expect(calls.some((c) => c.method === 'PUT' && c.path.includes('/_update/read/'))).toBe(false);
  });

  it('keyboard: j/k move, m toggles read, s star, r refreshes, ? shows the help', async () => {
    const { calls } = backend({ markRead: false });
    renderScreen(<FeedList db={ACC} />, at);
    const items = await screen.findAllByTestId('feed-item');
    const key = (k: string) => act(() => void fireEvent.keyDown(document, { key: k }));
    key('j');
    await waitFor(() => expect(items[0]).toHaveAttribute('aria-current', 'true'));
    key('j');
    await waitFor(() => expect(items[1]).toHaveAttribute('aria-current', 'true'));
    key('k');
    await waitFor(() => expect(items[0]).toHaveAttribute('aria-current', 'true'));
    key('m');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith(`/read/${item(0)._id}`))).toBe(true));
    key('s');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith(`/star/${item(0)._id}`))).toBe(true));
    key('o');
    expect(await within(items[0]!).findByTestId('item-content')).toBeInTheDocument();
    key('r');
    expect(await screen.findByTestId('refresh-result')).toHaveTextContent('2 feeds checked, 3 new or changed items, 0 failed');
    key('?');
    expect(await screen.findByTestId('shortcuts-help')).toHaveTextContent('Next item');
  });
});

describe('podcast episodes', () => {
  it('tells audio from other files and names the format', () => {
    expect(isAudio(EPISODE)).toBe(true);
    expect(isAudio({ url: 'https://cast.example/ep2.m4a' })).toBe(true);
    expect(isAudio({ url: 'https://cast.example/ep2.m4a', type: 'video/mp4' })).toBe(false);
    expect(isAudio({ url: 'https://cast.example/notes.pdf' })).toBe(false);
    expect(formatOf(EPISODE)).toBe('MP3');
    expect(formatOf({ url: 'https://cast.example/ep2.m4a' })).toBe('M4A');
    expect(formatOf({ url: 'https://cast.example/x', type: 'audio/x-custom' })).toBe('X-CUSTOM');
  });

  it('an episode gets a player that loads nothing until played, its format and size, and a download link; other files a link', async () => {
    renderScreen(<Enclosures title="Episódio 1" enclosures={[EPISODE, { url: 'https://cast.example/notes.pdf', type: 'application/pdf', length: 1500 }]} />);
    const audio = await screen.findByTestId('enclosure-audio');
    expect(audio).toHaveAttribute('src', EPISODE.url);
    expect(audio).toHaveAttribute('preload', 'none');
    expect(audio).toHaveAttribute('controls');
    expect(audio).toHaveAccessibleName('Play the episode of “Episódio 1”');
    expect(screen.getByTestId('enclosure-details')).toHaveTextContent('MP3 · 25.0 MB');
    expect(screen.getByTestId('enclosure-download')).toHaveAttribute('href', EPISODE.url);
    expect(screen.getByTestId('enclosure-file')).toHaveTextContent('Attached file (PDF · 1.5 kB)');
  });

  it('in the feed list the episode plays on its item; p plays and pauses the current one', async () => {
    backend({ markRead: false, episode: true });
    const played: string[] = [];
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      played.push(this.src);
      Object.defineProperty(this, 'paused', { value: false, configurable: true });
      return Promise.resolve();
    });
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
      Object.defineProperty(this, 'paused', { value: true, configurable: true });
    });
    try {
      renderScreen(<FeedList db={ACC} />, at);
      const items = await screen.findAllByTestId('feed-item');
      expect(within(items[0]!).getByTestId('enclosure-audio')).toHaveAttribute('src', EPISODE.url);
      expect(within(items[1]!).queryByTestId('enclosures')).toBeNull();
      const key = (k: string) => act(() => void fireEvent.keyDown(document, { key: k }));
      key('j');
      await waitFor(() => expect(items[0]).toHaveAttribute('aria-current', 'true'));
      key('p');
      expect(played).toEqual([EPISODE.url]);
      key('p');
      expect(pause).toHaveBeenCalledTimes(1);
      key('?');
      expect(await screen.findByTestId('shortcuts-help')).toHaveTextContent('Play or pause the episode');
    } finally {
      play.mockRestore();
      pause.mockRestore();
    }
  });
});

describe('subscription form', () => {
  it('shows the server refusal under the URL field and stays on the form', async () => {
    const { calls } = mockFetch((c: Call) => {
      if (c.path === '/api/_session') return json(200, { ok: true, userCtx: { name: ME, roles: [ME, ACC], locale: 'en' } });
      if (c.path.endsWith('/_find')) return json(200, { docs: [] });
      if (c.path === `/api/${ACC}/_reader/subscriptions`) {
        return json(422, { error: 'unprocessable_entity', reason: 'Your request failed', fields: { url: ['could not be fetched', 'HTTP 404 Not Found'] } });
      }
      return undefined;
    });
    renderScreen(<SubscriptionNew />, { path: '/account/:account_id/reader_subscriptions/new', url: `/account/${ACC}/reader_subscriptions/new` });
    await userEvent.type(await screen.findByLabelText(/Feed or website address/), 'https://shop.example/');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText(/could not be fetched, HTTP 404 Not Found/)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/${ACC}/_reader/subscriptions`);
    expect(post?.body).toMatchObject({ url: 'https://shop.example/', active: true, customize_title: false, refresh_interval: 60, reader_label_ids: [] });
  });
});
