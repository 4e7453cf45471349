// Issue 22 item 15 in headless Chromium against the real Go server: the
// footer names the real build and this year; wiki links read like the
// app's links; icons keep their distance from labels; on a phone the
// profile's active tab is on screen. (Equipment named with its maker once:
// shared/servicedocs TestEquipmentNameSaysTheMakerOnce.) Screenshots go to
// test-results/small-*.png.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.small@oficina.test', name: 'Ana Detalhes', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let group = '';
const shots: string[] = [];

describe('small things', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    group = await signUpWithGroup(ana.page, server.dataDir, ANA, 'Oficina Detalhes');
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('says the real build and this year in the footer', async () => {
    const page = ana.page;
    await page.goto(`/account/${group}`);
    const text = (await tid(page, 'footer-release').textContent()) ?? '';
    expect(text).toContain(`2012–${new Date().getFullYear()}`);
    expect(text).toMatch(/Version [0-9a-f]{4,}|Version nogit/);
    expect(text).not.toMatch(/2012-2023|2025-10-15/);
  });

  it('styles the wiki links and spaces icons from their labels', async () => {
    const page = ana.page;
    const a = await api(page, 'POST', group, { klass: 'Handbook', title: 'Bateria', content: 'Veja [[Tela]].' });
    await api(page, 'POST', group, { klass: 'Handbook', title: 'Tela', content: 'Troca.' });
    await page.goto(`/account/${group}/handbooks/${a.json.id}`);
    await tid(page, 'page-html').locator('a').first().waitFor();
    const colors = await page.evaluate(() =>
      [...document.querySelectorAll('main a:not([class*="amplify"])')].map((el) => getComputedStyle(el).color),
    );
    expect(colors.length).toBeGreaterThan(0);
    // Not the browser's default link blue nor visited purple.
    expect(colors.filter((c) => c === 'rgb(0, 0, 238)' || c === 'rgb(85, 26, 139)')).toEqual([]);
    const gaps = await page.evaluate(() =>
      [...document.querySelectorAll('main .amplify-button')]
        .filter((b) => b.querySelector(':scope > svg[data-icon]') && (b.textContent ?? '').trim())
        .map((b) => {
          const icon = b.querySelector(':scope > svg[data-icon]')!.getBoundingClientRect();
          const range = document.createRange();
          const text = [...b.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
          if (!text) return 99;
          range.selectNodeContents(text);
          return range.getBoundingClientRect().left - icon.right;
        }),
    );
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
    shots.push(await shot(page, 'small-wiki-links'));
  });

  it('brings the profile’s active tab into view on a phone', async () => {
    const page = ana.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/user/profile?page=user_tokens');
    const tab = page.locator('[role="tab"][aria-selected="true"]');
    await tab.waitFor();
    await page.waitForFunction(() => {
      const r = document.querySelector('[role="tab"][aria-selected="true"]')!.getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth;
    });
    shots.push(await shot(page, 'small-profile-tabs-390'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
