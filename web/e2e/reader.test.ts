// Issue 12 end to end in headless Chromium against the real Go server: a
// local feed server on loopback (the server's fetch guard allows loopback
// for this run only: --fetch-allow-nets 127.0.0.0/8 --fetch-ports *) →
// subscribe by a website's address (its feed is discovered) and to a second
// feed with a label → the items appear on the dashboard → filters (read,
// starred, label) and numbered pages → open (marked read on opening), star,
// keyboard shortcuts and their help → load content → OPML export, then
// import into another Group with its progress → a podcast episode played on
// its item (mouse, p, pt-BR, 390 px). Screenshots of the key
// screens in both themes and at 390 px go to test-results/reader-*.png.

import { createServer, type Server as HttpServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, shotBoth as shotBothThemes, startServer, tick, tid, waitForLink, type Browser, type Server } from './harness';

const PASSWORD = 'correct horse battery';
const ANA = 'ana.reader@oficina.test';

let server: Server;
let feeds: HttpServer;
let feedBase = '';
let ana: Browser;
let groupA = '';
let groupB = '';
const shots: string[] = [];

function rss(title: string, site: string, items: Array<{ guid: string; title: string; link: string; content: string; hoursAgo: number }>): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${esc(title)}</title><link>${esc(site)}</link><description>d</description>` +
    items
      .map(
        (i) =>
          `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link><guid isPermaLink="false">${i.guid}</guid>` +
          `<pubDate>${new Date(Date.now() - i.hoursAgo * 3600_000).toUTCString()}</pubDate><description>${esc(i.content)}</description></item>`,
      )
      .join('') +
    '</channel></rss>'
  );
}

/** silentWav is a second of 8 kHz, 8-bit mono silence (8,044 bytes): what any Chromium plays. */
function silentWav(): Buffer {
  const samples = 8000;
  const b = Buffer.alloc(44 + samples, 0x80);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  return b;
}

/** podcast is a feed of one episode whose enclosure is the silent WAV. */
function podcast(): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Repair Radio</title><link>${feedBase}/cast/</link><description>d</description>` +
    `<item><title>Episode 1: cracked screens</title><link>${feedBase}/cast/1</link><guid isPermaLink="false">cast-1</guid>` +
    `<pubDate>${new Date(Date.now() - 600_000).toUTCString()}</pubDate><description>How to change a screen without fear.</description>` +
    `<enclosure url="${feedBase}/cast/ep1.wav" length="8044" type="audio/wav"/><itunes:duration>00:00:01</itunes:duration></item></channel></rss>`
  );
}

/** startFeeds serves a small blog (a page declaring its feed, 12 posts, an article), a second feed and a podcast. */
async function startFeeds(): Promise<void> {
  const routes: Record<string, () => { type: string; body: string }> = {
    '/blog/': () => ({
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html><head><title>Bike Shop Blog</title><link rel="alternate" type="application/rss+xml" title="Posts" href="/blog/feed.xml"></head><body><h1>Bike Shop</h1></body></html>`,
    }),
    '/blog/feed.xml': () => ({
      type: 'application/rss+xml',
      body: rss(
        'Bike Shop Blog',
        `${feedBase}/blog/`,
        Array.from({ length: 12 }, (_, n) => ({
          guid: `post-${n}`,
          title: n === 0 ? 'How to true a wheel' : `Workshop note ${n}`,
          link: n === 0 ? `${feedBase}/blog/true-a-wheel.html` : `${feedBase}/blog/${n}.html`,
          content: `<p>Note ${n} from the workshop, with <a href="/blog/${n}.html?utm_source=rss">a link</a>.</p><script>alert(${n})</script>`,
          hoursAgo: n + 1,
        })),
      ),
    }),
    '/blog/true-a-wheel.html': () => ({
      type: 'text/html; charset=utf-8',
      body:
        '<!doctype html><html><head><title>How to true a wheel</title></head><body><nav><a href="/">Home</a></nav><article><h1>How to true a wheel</h1>' +
        '<p>To true a wheel you need a spoke key, patience and a truing stand. Tighten the spokes a quarter turn at a time.</p>'.repeat(6) +
        '</article><footer>Copyright Bike Shop</footer></body></html>',
    }),
    '/parts.xml': () => ({
      type: 'application/rss+xml',
      body: rss(
        'Parts Supplier',
        `${feedBase}/parts/`,
        Array.from({ length: 3 }, (_, n) => ({ guid: `part-${n}`, title: `New part ${n}`, link: `${feedBase}/parts/${n}`, content: `<p>Part ${n}</p>`, hoursAgo: n + 0.5 })),
      ),
    }),
  };
  routes['/cast.xml'] = () => ({ type: 'application/rss+xml', body: podcast() });
  feeds = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/cast/ep1.wav') {
      const wav = silentWav();
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': wav.length, 'Accept-Ranges': 'none' }).end(wav);
      return;
    }
    const r = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    const { type, body } = r();
    res.writeHead(200, { 'Content-Type': type }).end(body);
  });
  await new Promise<void>((ok) => feeds.listen(0, '127.0.0.1', ok));
  const addr = feeds.address();
  feedBase = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

async function shotBoth(page: Page, name: string, ready: () => Promise<unknown>) {
  shots.push(...(await shotBothThemes(page, `reader-${name}`, ready)));
}

describe('the feed reader in a real browser', () => {
  beforeAll(async () => {
    const bin = preflight();
    await startFeeds();
    server = await startServer(bin, ['--fetch-allow-nets', '127.0.0.0/8', '--fetch-ports', '*']);
    ana = await openBrowser(server.baseURL);
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
    await new Promise((ok) => feeds?.close(ok));
  }, 60_000);

  it('signs up, makes two Groups and turns the reader on', async () => {
    const page = ana.page;
    await page.goto('/user/register');
    await page.locator('input[name=email]').fill(ANA);
    await page.locator('input[name=fullname]').fill('Ana Reader');
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.locator('input[name=password_confirmation]').fill(PASSWORD);
    await tick(page.locator('input[name=accept_terms]'));
    await page.locator('form button[type=submit]').click();
    await tid(page, 'select-group').waitFor();
    await page.goto(await waitForLink(server.dataDir, ANA, /^\/user\/confirm\/[^/]+$/));
    await tid(page, 'confirmed').waitFor();

    const a = await api(page, 'POST', 'accounts', { name: 'Bike Shop' });
    const b = await api(page, 'POST', 'accounts', { name: 'Second Shop' });
    expect([a.status, b.status]).toEqual([201, 201]);
    groupA = a.json.id;
    groupB = b.json.id;
    // The Group's exoreader switch (an adjustment, disabled by default).
    for (const g of [groupA, groupB]) {
      const found = await api(page, 'POST', `${g}/_find`, { selector: { klass: 'Adjustment', key: 'exoreader' }, limit: 1 });
      const adj = found.json.docs[0];
      const r = adj
        ? await api(page, 'PUT', `${g}/${adj._id}?rev=${adj._rev}`, { ...adj, value: 'enabled' })
        : await api(page, 'POST', g, { klass: 'Adjustment', key: 'exoreader', label: 'exoreader', value: 'enabled' });
      expect(r.status, r.text).toBeLessThan(300);
    }
    await page.goto(`/account/${groupA}`);
    await tid(page, 'user-menu').click();
    await tid(page, 'module-exoreader').click();
    await tid(page, 'feed-list').waitFor();
    await tid(page, 'feed-empty').waitFor();
  });

  it('subscribes by a website address (its feed found) and to a labelled feed', async () => {
    const page = ana.page;
    await page.goto(`/account/${groupA}/reader_labels/new`);
    await page.locator('input[name=name]').fill('Suppliers');
    await page.locator('[data-testid="record-form"] button[type=submit]').click();
    await page.waitForURL(new RegExp(`/reader_labels/rlb-`));

    await page.goto(`/account/${groupA}/reader_subscriptions/new`);
    await page.locator('input[name=url]').fill(`${feedBase}/blog/`);
    await page.locator('[data-testid="record-form"] button[type=submit]').click();
    await page.waitForURL(new RegExp(`/reader_subscriptions/rsb-`));
    await tid(page, 'fetch-status').and(page.locator('[data-status="ok"]')).waitFor();
    await page.getByText(`${feedBase}/blog/feed.xml`).first().waitFor();

    // A URL that is not a feed is refused under the field; nothing is saved.
    await page.goto(`/account/${groupA}/reader_subscriptions/new`);
    await page.locator('input[name=url]').fill(`${feedBase}/nothing-here`);
    await page.locator('[data-testid="record-form"] button[type=submit]').click();
    await page.getByText(/could not be fetched/).waitFor();

    await page.locator('input[name=url]').fill(`${feedBase}/parts.xml`);
    await tid(page, 'label-checklist').getByText('Suppliers').click();
    await page.locator('[data-testid="record-form"] button[type=submit]').click();
    await page.waitForURL(new RegExp(`/reader_subscriptions/rsb-`));
    await tid(page, 'detail-list').getByText('Suppliers').waitFor();

    await page.goto(`/account/${groupA}/reader_subscriptions`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="record-table"] tbody tr').length === 2);
    await shotBoth(page, 'subscriptions', () => tid(page, 'record-table').waitFor());
  });

  it('shows the items on the dashboard: filters, pages, open, read, star', async () => {
    const page = ana.page;
    await page.goto(`/account/${groupA}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="feed-total"]')?.textContent === 'Items: 15');
    // No script from the feed reached the page.
    expect(await page.evaluate(() => document.querySelectorAll('.reader-content script').length)).toBe(0);
    await shotBoth(page, 'dashboard', () => page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 10));

    // Page 2 of 2.
    await page.getByRole('button', { name: /next/i }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 5);
    expect(page.url()).toContain('page=2');
    await page.getByRole('button', { name: /previous/i }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 10);

    // Label filter: the supplier's three parts.
    await tid(page, 'filter-label').selectOption({ label: 'Suppliers (3)' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 3);
    await tid(page, 'filter-label').selectOption('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 10);

    // Open the first item: its content shows (sanitised) and it is marked read on opening.
    const first = tid(page, 'feed-item').first();
    await first.locator('[data-testid="item-title"]').click();
    await first.locator('[data-testid="item-content"]').waitFor();
    await first.locator('[data-testid="toggle-read"][aria-pressed="true"]').waitFor();
    await first.locator('[data-testid="toggle-star"]').click();
    await first.locator('[data-testid="toggle-star"][aria-pressed="true"]').waitFor();

    // Filters: starred (read or not) shows it, and so does read; starred and
    // unread shows none (it was read on opening).
    await tid(page, 'filter-read').selectOption('all');
    await tid(page, 'filter-starred').selectOption('starred');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 1);
    await tid(page, 'filter-read').selectOption('read');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 1);
    await tid(page, 'filter-read').selectOption('unread');
    await tid(page, 'feed-empty').waitFor();
    await tid(page, 'filter-starred').selectOption('all');
    await tid(page, 'filter-read').selectOption('unread');
    await page.waitForFunction(() => document.querySelector('[data-testid="feed-total"]')?.textContent === 'Items: 14');
  });

  it('works by keyboard: j/k, o, m, s, ? and r', async () => {
    const page = ana.page;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.locator('[data-testid="feed-item"][aria-current="true"]').first().waitFor();
    await page.keyboard.press('j');
    const second = tid(page, 'feed-item').nth(1);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]')[1]?.getAttribute('aria-current') === 'true');
    await page.keyboard.press('s');
    await second.locator('[data-testid="toggle-star"][aria-pressed="true"]').waitFor();
    await page.keyboard.press('m');
    await second.locator('[data-testid="toggle-read"][aria-pressed="true"]').waitFor();
    await page.keyboard.press('m');
    await second.locator('[data-testid="toggle-read"][aria-pressed="false"]').waitFor();
    await page.keyboard.press('o');
    await second.locator('[data-testid="item-content"]').waitFor();
    await page.keyboard.press('k');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]')[0]?.getAttribute('aria-current') === 'true');
    await page.keyboard.press('?');
    await tid(page, 'shortcuts-help').waitFor();
    shots.push(await shot(page, 'reader-shortcuts-light', false));
    await page.keyboard.press('Escape');
    await tid(page, 'shortcuts-help').waitFor({ state: 'detached' });
    await page.keyboard.press('r');
    await tid(page, 'refresh-result').waitFor();
  });

  it('loads the original article and opens an item on its own page', async () => {
    const page = ana.page;
    await page.goto(`/account/${groupA}/reader_items?read=all`);
    const item = tid(page, 'feed-item').filter({ hasText: 'How to true a wheel' });
    // The list refetches once on arrival: open the menu on the settled one.
    await page.locator('[data-testid="feed-list"] [aria-busy="false"]').waitFor();
    await item.locator('[data-testid="item-menu"]').click();
    await tid(page, 'menu-load-content').click();
    await item.locator('[data-testid="item-content"]').getByText('spoke key').first().waitFor();
    expect(await item.locator('[data-testid="item-content"]').textContent()).not.toContain('Copyright');
    const href = await page.evaluate(() => {
      const id = document.querySelector('[data-testid="feed-item"] [data-testid="item-title"]')?.id.replace('title-', '');
      return id ?? '';
    });
    await page.goto(`/account/${groupA}/reader_items/${href}`);
    await tid(page, 'reader-item').waitFor();
    await tid(page, 'history-panel').waitFor();
    await shotBoth(page, 'item', () => tid(page, 'reader-item').waitFor());
  });

  it('is usable at 390 px', async () => {
    const page = ana.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/account/${groupA}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length > 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shotBoth(page, 'dashboard-390', () => page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length > 0));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('exports OPML and imports it into another Group with its progress', async () => {
    const page = ana.page;
    await page.goto(`/account/${groupA}/reader_subscriptions`);
    const [download] = await Promise.all([page.waitForEvent('download'), tid(page, 'opml-export').click()]);
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file).toContain(`xmlUrl="${feedBase}/parts.xml"`);
    expect(file).toContain('<outline text="Suppliers" title="Suppliers">');

    await page.goto(`/account/${groupB}/reader_subscriptions`);
    await tid(page, 'records-empty').waitFor();
    await tid(page, 'opml-file').setInputFiles({ name: 'feeds.opml', mimeType: 'text/x-opml', buffer: Buffer.from(file) });
    await tid(page, 'opml-summary').getByText('2 subscribed').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="record-table"] tbody tr').length === 2);
    await shotBoth(page, 'import', () => tid(page, 'record-table').waitFor());
    // The imported Group's feed list has the items (the import refreshed its feeds).
    await page.goto(`/account/${groupB}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-item"]').length === 10);
    // The export of the second Group is the same file.
    const again = await api(page, 'GET', `${groupB}/_reader/opml`);
    expect(again.text).toBe(file);
  });

  it('plays a podcast episode on its item: by mouse, by keyboard (p), in pt-BR, at 390 px', async () => {
    const page = ana.page;
    const sub = await api(page, 'POST', `${groupA}/_reader/subscriptions`, { url: `${feedBase}/cast.xml` });
    expect(sub.status, sub.text).toBe(201);
    await page.goto(`/account/${groupA}/reader_items?read=all`);
    await page.locator('[data-testid="feed-list"] [aria-busy="false"]').waitFor();
    const episode = tid(page, 'feed-item').filter({ hasText: 'Episode 1: cracked screens' });
    const audio = episode.locator('[data-testid="enclosure-audio"]');
    await audio.waitFor();
    expect(await audio.getAttribute('src')).toBe(`${feedBase}/cast/ep1.wav`);
    expect(await audio.getAttribute('preload')).toBe('none');
    expect(await episode.locator('[data-testid="enclosure-details"]').textContent()).toBe(' · WAV · 8.0 kB');
    // Nothing else in the list got a player.
    expect(await page.locator('[data-testid="enclosure-audio"]').count()).toBe(1);
    await shotBoth(page, 'episode', () => tid(page, 'feed-item').filter({ hasText: 'Episode 1: cracked screens' }).locator('[data-testid="enclosure-audio"]').waitFor());

    // By keyboard: the episode is the newest item; j selects it, p plays, p pauses.
    await page.goto(`/account/${groupA}/reader_items?read=all`);
    await page.locator('[data-testid="feed-list"] [aria-busy="false"]').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.waitForFunction(() => document.querySelector('[data-testid="feed-item"][aria-current="true"] [data-testid="enclosure-audio"]') !== null);
    await page.keyboard.press('p');
    await page.waitForFunction(() => {
      const a = document.querySelector<HTMLAudioElement>('[data-testid="enclosure-audio"]');
      return a !== null && !a.paused && a.currentTime > 0;
    });
    await page.keyboard.press('p');
    await page.waitForFunction(() => document.querySelector<HTMLAudioElement>('[data-testid="enclosure-audio"]')?.paused === true);
    // The player's own controls take the keyboard too: Tab reaches it.
    await page.locator('[data-testid="enclosure-audio"]').focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('enclosure-audio');

    // Its own page, in pt-BR.
    const id = await episode.locator('[data-testid="item-title"]').getAttribute('id');
    await page.goto(`/account/${groupA}/reader_items/${id!.replace('title-', '')}`);
    await tid(page, 'reader-item').locator('[data-testid="enclosure-audio"]').waitFor();
    await tid(page, 'user-menu').click();
    await tid(page, 'locale-pt-BR').click();
    await page.locator('html[lang="pt-BR"]').waitFor();
    await tid(page, 'enclosure-download').getByText('Baixar o episódio').waitFor();
    expect(await tid(page, 'enclosure-audio').getAttribute('aria-label')).toBe('Ouvir o episódio de “Episode 1: cracked screens”');
    shots.push(await shot(page, 'reader-episode-pt-BR-light'));
    await tid(page, 'user-menu').click();
    await tid(page, 'locale-en').click();
    await page.locator('html[lang="en"]').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await tid(page, 'enclosure-audio').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      const box = await tid(page, 'enclosure-audio').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'reader-episode-390-light'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
