// Issue 14 end to end in headless Chromium against the real Go server:
// three pages written through the form, linking each other with [[Title]]
// → one renamed → its links and "linked by" still work, the old title
// redirects (and the page says so) → two browsers edit the same page → the
// second sees the conflict view with the diff, merges and saves → search
// finds it → the bookmarks app, with titles read from loopback pages (a PDF
// and a hostile title among them) → a category's handbooks on the category's
// and its ticket's screens → [[ completion and images pasted and dropped
// into the editor, kept in the drive's "wiki" folder.
// Screenshots go to test-results/wiki-*.png (light, dark, 390 px).

import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, shotBoth, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.wiki@oficina.test', name: 'Ana Wiki', password: 'correct horse battery' };

let server: Server;
// Pages whose titles the links app reads (the server's fetch guard lets
// loopback through only because this run starts it with --fetch-allow-nets).
let pages: HttpServer;
let pagesURL = '';
let ana: Browser;
let second: Browser;
let group = '';
const ids: Record<string, string> = {};
const shots: string[] = [];

async function writePage(page: Page, title: string, content: string): Promise<string> {
  await page.goto(`/account/${group}/handbooks/new`);
  await tid(page, 'wiki-title').fill(title);
  await tid(page, 'wiki-content').fill(content);
  await tid(page, 'wiki-save').click();
  await page.waitForURL(/\/handbooks\/han-[0-9a-f]{32}$/);
  await tid(page, 'page-html').waitFor();
  return page.url().split('/').pop()!;
}

describe('the wiki in a real browser', () => {
  beforeAll(async () => {
    pages = createServer((req, res) => {
      const page: Record<string, [string, string]> = {
        '/manual': ['text/html; charset=utf-8', '<!doctype html><html><head><title>Maker X200 service manual</title></head><body>…</body></html>'],
        '/hostile': ['text/html', '<html><head><title><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> Parts</title></head></html>'],
        '/manual.pdf': ['application/pdf', '%PDF-1.7\n'],
      };
      const p = page[req.url ?? ''];
      if (!p) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': p[0] }).end(p[1]);
    });
    await new Promise<void>((ok) => pages.listen(0, '127.0.0.1', ok));
    const addr = pages.address();
    pagesURL = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    server = await startServer(preflight(), ['--fetch-allow-nets', '127.0.0.0/8', '--fetch-ports', '*']);
    ana = await openBrowser(server.baseURL);
    second = await openBrowser(server.baseURL);
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [ana, second], shots);
    await new Promise((ok) => pages?.close(ok));
  }, 60_000);

  it('writes three pages that link each other', async () => {
    const page = ana.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Manuais');
    ids.screen = await writePage(page, 'Screen replacement', '# Steps\n\n1. Check [[Tools]] first.\n2. Follow [[Safety]].\n');
    ids.tools = await writePage(page, 'Tools', 'Screwdrivers and a heat gun. See [[Safety]].');
    ids.safety = await writePage(page, 'Safety', 'Disconnect the battery before [[Screen replacement]].');
    await tid(page, 'linked-by').getByText('Tools').waitFor();
    await tid(page, 'linked-by').getByText('Screen replacement').waitFor();
    await tid(page, 'links-to').getByText('Screen replacement').waitFor();
    shots.push(...(await shotBoth(page, 'wiki-page', () => tid(page, 'linked-by').getByText('Tools').waitFor())));
  });

  it('keeps links and "linked by" right across a rename, and the old title redirects', async () => {
    const page = ana.page;
    const doc = await api(page, 'GET', `${group}/${ids.tools}`);
    const r = await api(page, 'PUT', `${group}/${ids.tools}`, { ...doc.json, title: 'Tools and supplies' });
    expect(r.status, r.text).toBe(201);
    await page.goto(`/account/${group}/handbooks/${ids.safety}`);
    await tid(page, 'linked-by').getByText('Tools and supplies').waitFor();
    await page.goto(`/account/${group}/handbooks/${ids.screen}`);
    // The link written as [[Tools]] now reads the new title and still opens the page.
    await tid(page, 'page-html').getByRole('link', { name: 'Tools' }).first().click();
    await page.waitForURL(new RegExp(`/handbooks/${ids.tools}$`));
    await page.goto(`/account/${group}/handbooks/${encodeURIComponent('Tools')}`);
    await page.waitForURL(new RegExp(`/handbooks/${ids.tools}$`));
    // The page reached by its old title says so.
    await tid(page, 'wiki-redirected').getByText('Tools', { exact: false }).waitFor();
    await tid(page, 'page-html').getByText('heat gun').waitFor();
    const resolved = await api(page, 'GET', `${group}/_wiki/resolve?title=${encodeURIComponent('Tools')}`);
    expect(resolved.json).toMatchObject({ id: ids.tools, redirected: true });
  });

  it('shows the second editor the conflict view instead of a raw 409, and saves the merge', async () => {
    const mine = ana.page;
    const theirs = second.page;
    // The second browser signs in as the same user (a colleague's session would do the same).
    await theirs.goto('/user/login');
    await theirs.locator('input[name=email]').fill(ANA.email);
    await theirs.locator('input[name=password]').fill(ANA.password);
    await theirs.locator('form button[type=submit]').click();
    await theirs.waitForURL((u) => !u.pathname.startsWith('/user/login'));

    await mine.goto(`/account/${group}/handbooks/${ids.safety}/edit`);
    await theirs.goto(`/account/${group}/handbooks/${ids.safety}/edit`);
    await tid(mine, 'wiki-content').waitFor();
    await tid(theirs, 'wiki-content').waitFor();
    await tid(mine, 'wiki-content').fill('Disconnect the battery before [[Screen replacement]].\n\nWear gloves.');
    await tid(mine, 'wiki-save').click();
    await mine.waitForURL(new RegExp(`/handbooks/${ids.safety}$`));

    await tid(theirs, 'wiki-content').fill('Disconnect the battery before [[Screen replacement]].\n\nUse an ESD strap.');
    await tid(theirs, 'wiki-save').click();
    await tid(theirs, 'conflict-view').waitFor();
    shots.push(await shot(theirs, 'wiki-conflict'));
    // Both texts are shown side by side with the diff, then the second editor merges and saves.
    await tid(theirs, 'conflict-diff').waitFor();
    await tid(theirs, 'conflict-theirs').getByText('Wear gloves', { exact: false }).waitFor();
    await tid(theirs, 'conflict-merge').click();
    const merged = tid(theirs, 'conflict-merged').locator('textarea').or(theirs.locator('textarea[data-testid="conflict-merged"]'));
    await merged.first().fill('Disconnect the battery before [[Screen replacement]].\n\nWear gloves.\n\nUse an ESD strap.');
    await tid(theirs, 'conflict-save-merged').click();
    await theirs.waitForURL(new RegExp(`/handbooks/${ids.safety}$`));
    await tid(theirs, 'page-html').getByText('Use an ESD strap.').waitFor();
    await tid(theirs, 'page-html').getByText('Wear gloves.').waitFor();
    await mine.reload();
    await tid(mine, 'page-html').getByText('Use an ESD strap.').waitFor();
  });

  it('finds pages by full text, and fits a phone', async () => {
    const page = ana.page;
    await page.goto('/wiki');
    await page.locator('[data-testid="wiki-search"] input, input[data-testid="wiki-search"]').first().fill('heat gun');
    await page.keyboard.press('Enter');
    await tid(page, 'wiki-results').getByText('Tools and supplies').waitFor();
    shots.push(await shot(page, 'wiki-search'));
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`/account/${group}/handbooks/${ids.screen}`);
      await tid(page, 'page-html').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'wiki-page-390'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('keeps bookmarks with tags', async () => {
    const page = ana.page;
    const b = await api(page, 'POST', group, { klass: 'Bookmark', url: 'https://example.com/manual.pdf', title: 'Maker manual', tags: 'manuals, pdf' });
    expect(b.status, b.text).toBe(201);
    await page.goto(`/account/${group}/bookmarks`);
    await tid(page, `bookmark-row-${b.json.id}`).waitFor();
    shots.push(await shot(page, 'wiki-bookmarks'));
  });

  it("reads a bookmark's title from its page, and says why when it cannot", async () => {
    const page = ana.page;
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/account/${group}/bookmarks`);
    const add = async (url: string) => {
      await tid(page, 'bookmark-new').click();
      await tid(page, 'bookmark-url').fill(url);
      await tid(page, 'bookmark-url').press('Tab');
    };
    await add(`${pagesURL}/manual`);
    await expect.poll(() => tid(page, 'bookmark-title').inputValue()).toBe('Maker X200 service manual');
    await tid(page, 'bookmark-save').click();
    await page.getByRole('link', { name: /Maker X200 service manual/ }).waitFor();

    // A PDF has no title to read: the form says so and the title is typed.
    await add(`${pagesURL}/manual.pdf`);
    await page.getByText(/No title read from the page \(this is not a web page, application\/pdf\)/).waitFor();
    expect(await tid(page, 'bookmark-title').inputValue()).toBe('');
    shots.push(await shot(page, 'wiki-bookmark-no-title'));
    await tid(page, 'bookmark-title').fill('Maker X200 manual (PDF)');
    await tid(page, 'bookmark-save').click();
    await page.getByRole('link', { name: /Maker X200 manual \(PDF\)/ }).waitFor();

    // Markup in a title is text: shown as typed, never run.
    await add(`${pagesURL}/hostile`);
    await expect.poll(() => tid(page, 'bookmark-title').inputValue()).toContain('<script>');
    await tid(page, 'bookmark-save').click();
    await page.getByText('<script>window.__pwned = 1</script>', { exact: false }).first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0)).toBe(0);
    expect(await page.locator('main script, main img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it("shows a category's handbooks on the category's and its tickets' screens", async () => {
    const page = ana.page;
    const cat = await api(page, 'POST', group, { klass: 'Category', name: 'Screens', color: '#3b82f6' });
    expect(cat.status, cat.text).toBe(201);
    // The page is filed as "screens": categories match ignoring case.
    const doc = await api(page, 'GET', `${group}/${ids.screen}`);
    const put = await api(page, 'PUT', `${group}/${ids.screen}`, { ...doc.json, categories: ['screens'] });
    expect(put.status, put.text).toBe(201);
    const tk = await api(page, 'POST', group, { klass: 'Ticket', content: 'Cracked screen', category_id: cat.json.id });
    expect(tk.status, tk.text).toBe(201);

    await page.goto(`/account/${group}/categories/${cat.json.id}`);
    const onCategory = tid(page, 'handbooks-panel');
    await onCategory.getByRole('link', { name: 'Screen replacement' }).waitFor();
    shots.push(await shot(page, 'wiki-category-handbooks'));

    await page.goto(`/account/${group}/tickets/${tk.json.id}`);
    await tid(page, 'handbooks-panel').getByRole('link', { name: 'Screen replacement' }).click();
    await page.waitForURL(new RegExp(`/handbooks/${ids.screen}$`));
    await tid(page, 'page-html').waitFor();

    // The page and its category export as PDF (laid out by the server) and Markdown.
    for (const [to, button, suffix] of [
      [`/account/${group}/handbooks/${ids.screen}`, 'wiki-export-pdf', '.pdf'],
      ['/wiki?category=screens', 'wiki-category-export-pdf', '.pdf'],
      ['/wiki?category=screens', 'wiki-category-export', '.zip'],
    ] as const) {
      await page.goto(to);
      const [download] = await Promise.all([page.waitForEvent('download'), tid(page, button).click()]);
      expect(download.suggestedFilename().endsWith(suffix), download.suggestedFilename()).toBe(true);
      const file = await download.path();
      const head = readFileSync(file).subarray(0, 4).toString('latin1');
      expect(head).toBe(suffix === '.pdf' ? '%PDF' : 'PK\u0003\u0004');
    }
    await page.goto(`/account/${group}/tickets/${tk.json.id}`);

    // A new page from the ticket's panel is filed under its category.
    await tid(page, 'handbooks-new').click();
    await page.waitForURL(/\/handbooks\/new\?category=Screens$/);
    expect(await tid(page, 'wiki-categories-input').locator('input').or(page.locator('input[data-testid="wiki-categories-input"]')).first().inputValue()).toBe('Screens');
  });

  it('completes [[ titles and keeps pasted and dropped images in the drive', async () => {
    const page = ana.page;
    await page.goto(`/account/${group}/handbooks/new`);
    await tid(page, 'wiki-title').fill('Bench photos');
    const text = tid(page, 'wiki-content');
    await text.click();
    await page.keyboard.type('See [[Saf');
    await tid(page, 'wiki-complete').getByRole('option', { name: 'Safety' }).waitFor();
    await page.keyboard.press('Enter');
    expect(await text.inputValue()).toBe('See [[Safety]]');
    await page.keyboard.type('\n\n');
    // A 1×1 PNG pasted from the clipboard, then another dropped on the text.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await text.evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, png);
    await expect.poll(() => text.inputValue(), { timeout: 15_000 }).toMatch(/!\[pasted-[^\]]+\]\(\/api\/acc-[0-9a-f]+\/_drive\/files\/fle-[0-9a-f]{32}\/content\?inline=true\)/);
    await text.evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'bench.png', { type: 'image/png' }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, png);
    await expect.poll(() => text.inputValue(), { timeout: 15_000 }).toMatch(/!\[bench-[0-9a-f]+\]\(\/api\//);
    await tid(page, 'wiki-save').click();
    await page.waitForURL(/\/handbooks\/han-[0-9a-f]{32}$/);
    const imgs = tid(page, 'page-html').locator('img');
    await expect.poll(() => imgs.count()).toBe(2);
    // Both load from the drive (the browser's session reads them).
    await expect.poll(() => imgs.evaluateAll((els) => els.every((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth === 1))).toBe(true);
    // They sit in the drive's "wiki" folder.
    const root = await api(page, 'GET', `${group}/_drive/dirs/root`);
    const folder = root.json.entries.find((e: { name: string; kind: string }) => e.kind === 'dir' && e.name === 'wiki');
    expect(folder, root.text).toBeTruthy();
    const inside = await api(page, 'GET', `${group}/_drive/dirs/${folder._id}`);
    expect(inside.json.entries.map((e: { name: string }) => e.name).sort()).toEqual([expect.stringMatching(/^bench-[0-9a-f]+\.png$/), expect.stringMatching(/^pasted-.+\.png$/)]);
  });
});
