// Issue 22 item 10 in headless Chromium against the real Go server: with a
// long Group name and every module on, the navbar stays one row at 1280 px
// in every module — what does not fit goes into the "Others" menu — and at
// 390 px the toggle menu holds every item. Screenshots go to
// test-results/navbar-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, openBrowser, preflight, setGroupSetting, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.navbar@oficina.test', name: 'Ana Maria de Souza Albuquerque', password: 'correct horse battery' };
const LONG = 'Assistência Técnica do Zé — Celulares e Computadores';
const MODULES = ['ticket', 'organize3', 'exoreader', 'textnotes', 'rdisk'];

let server: Server;
let ana: Browser;
let group = '';
const shots: string[] = [];

/** rows counts the navbar's rows: the distinct vertical centres of its top-level parts. */
function rows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const tops = [...document.querySelectorAll('.navbar__inner > *')]
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => Math.round(r.top + r.height / 2));
    return new Set(tops.map((t) => Math.round(t / 16))).size;
  });
}

async function useModule(page: Page, m: string) {
  await tid(page, 'user-menu').click();
  await tid(page, `module-${m}`).click();
  await page.goto(`/account/${group}`);
  await tid(page, 'nav-dashboard').waitFor({ state: 'attached' });
}

describe('the navbar', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    group = await signUpWithGroup(ana.page, server.dataDir, ANA, LONG);
    for (const key of ['organize3', 'exoreader', 'textnotes', 'rdisk']) await setGroupSetting(ana.page, group, key, 'enabled');
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('stays one row at 1280 px in every module, moving what does not fit into Others', async () => {
    const page = ana.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/account/${group}`);
    await tid(page, 'nav-dashboard').waitFor();
    for (const m of MODULES) {
      await useModule(page, m);
      await page.waitForFunction(() => document.querySelector('[data-testid="account-switcher"]'));
      expect(await rows(page), m).toBe(1);
      const shown = await page.locator('nav#navbar-menu > a.navbar__link').count();
      const all = await page.locator('.navbar__measure > *').count();
      if (shown < all) {
        await tid(page, 'nav-others').click();
        expect(await page.locator('[data-testid^="others-moved-"]').count(), m).toBe(all - shown);
        await page.keyboard.press('Escape');
      }
      shots.push(await shot(page, `navbar-1280-${m}`, false));
    }
  });

  it('holds every item in the toggle menu at 390 px', async () => {
    const page = ana.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await useModule(page, 'organize3');
    await page.locator('.navbar__toggle').click();
    const links = page.locator('nav#navbar-menu > a.navbar__link');
    expect(await links.count()).toBe(await page.locator('.navbar__measure > *').count());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    shots.push(await shot(page, 'navbar-390-organize3', false));
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
