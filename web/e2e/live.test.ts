// Issue 25 end to end: live updates between two people of one Group, each in
// their own headless Chromium against the real Go server. Ana (the Group's
// admin) and Tiago (a technician) have the board, a ticket and the
// dashboard open; what one does shows on the other's screen without a
// reload: a card dragged on the board, a comment on the ticket page, a
// closed ticket leaving the open count. Each wait is bounded at 5 s, below
// the 15 s fallback poll, so only the live channel can pass it; the
// measured times (Ana's write answered → Tiago's screen changed) are
// printed. Then Ana removes Tiago from the Group: his channel is refused
// and the quiet indicator says so (screenshots in both themes and at 390 px).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, registerAndConfirm, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.live@oficina.test', name: 'Ana Live', password: 'correct horse battery' };
const TIAGO = { email: 'tiago.live@oficina.test', name: 'Tiago Live', password: 'correct horse battery' };
/** Below the fallback's 15 s poll: passing it needs the live channel. */
const LIVE_BOUND_MS = 5_000;

let server: Server;
let ana: Browser;
let tiago: Browser;
let group = '';
let ticketId = '';
let membershipId = '';
const shots: string[] = [];
const figures: string[] = [];

const cardIn = (page: Page, column: string, n: number) => tid(page, `column-${column}`).locator(`[data-testid="card-${n}"]`);

/** waitLive waits until the page's channel has subscribed. */
async function waitLive(page: Page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute('data-status') === 'live', null, {
    timeout: 15_000,
  });
}

/**
 * timed runs write on Ana's page, taking the moment its request to path is
 * answered, then waits (bounded) for seen on Tiago's page and records the gap.
 */
async function timed(what: string, path: RegExp, write: () => Promise<unknown>, seen: () => Promise<unknown>) {
  const answered = ana.page.waitForResponse((r) => path.test(new URL(r.url()).pathname) && r.request().method() !== 'GET').then(() => Date.now());
  await write();
  const t0 = await answered;
  await seen();
  const ms = Date.now() - t0;
  figures.push(`${what}: ${ms} ms`);
  return ms;
}

describe('live updates between two browsers', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    tiago = await openBrowser(server.baseURL);
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [ana, tiago], shots);
    if (figures.length) console.log(`live updates, write answered → the other screen changed:\n  ${figures.join('\n  ')}`);
  }, 60_000);

  it('Ana makes a Group with a ticket and Tiago joins it', async () => {
    group = await signUpWithGroup(ana.page, server.dataDir, ANA, 'Ana Live Repairs');
    const inv = await api(ana.page, 'POST', group, { klass: 'Membership', email: TIAGO.email, editor: false });
    expect(inv.status, inv.text).toBe(201);
    membershipId = inv.json.id;
    await registerAndConfirm(tiago.page, server.dataDir, TIAGO);
    const acc = await api(tiago.page, 'PUT', `${group}/_design/status/_update/accept/${membershipId}`, {});
    expect(acc.status, acc.text).toBe(200);
    const t = await api(ana.page, 'POST', group, { klass: 'Ticket', content: 'Cracked screen', priority: 'high', status: 'open' });
    expect(t.status, t.text).toBe(201);
    ticketId = t.json.id;
  });

  it('a card Ana drags moves on Tiago’s board', async () => {
    for (const b of [ana, tiago]) {
      await b.page.goto(`/account/${group}`);
      await tid(b.page, 'timeline').waitFor();
      await b.page.goto('/ticket-board');
      await cardIn(b.page, 'open', 1).waitFor();
      await waitLive(b.page);
    }
    await timed(
      'card dragged',
      new RegExp(`/api/${group}/`),
      () => tid(ana.page, 'card-1').dragTo(tid(ana.page, 'column-doing')),
      () => cardIn(tiago.page, 'doing', 1).waitFor({ timeout: LIVE_BOUND_MS }),
    );
    await expect.poll(() => tid(tiago.page, 'count-open').textContent(), { timeout: LIVE_BOUND_MS }).toBe('0');
  });

  it('a comment Ana writes appears on Tiago’s ticket page', async () => {
    for (const b of [ana, tiago]) {
      await b.page.goto(`/account/${group}/tickets/${ticketId}`);
      await tid(b.page, 'comments-panel').waitFor();
      await waitLive(b.page);
    }
    await ana.page.locator('textarea[name=content]').last().fill('Screen ordered, arrives Friday.');
    await timed(
      'comment',
      new RegExp(`/api/${group}`),
      () => tid(ana.page, 'comments-panel').getByRole('button', { name: /comment/i }).click(),
      () => tid(tiago.page, 'comments-panel').getByText('Screen ordered, arrives Friday.').waitFor({ timeout: LIVE_BOUND_MS }),
    );
  });

  it('a ticket Ana closes leaves Tiago’s open count', async () => {
    await tiago.page.goto(`/account/${group}`);
    const badge = tid(tiago.page, 'nav-tickets').locator('.counter-badge');
    await expect.poll(() => badge.textContent()).toBe('1');
    await tid(tiago.page, 'open-tickets-card').waitFor();
    await waitLive(tiago.page);
    await tid(ana.page, 'move-done').waitFor();
    await timed(
      'ticket closed',
      new RegExp(`/api/${group}/`),
      () => tid(ana.page, 'move-done').click(),
      () =>
        tiago.page.waitForFunction(() => document.querySelector('[data-testid="nav-tickets"] .counter-badge')?.textContent === '0', null, {
          timeout: LIVE_BOUND_MS,
        }),
    );
    await expect.poll(() => tid(tiago.page, 'open-tickets-card').locator('.counter-badge').textContent(), { timeout: LIVE_BOUND_MS }).toBe('0');
    // The timeline follows too.
    await tid(tiago.page, 'timeline').locator('[data-testid="change-card"][data-kind="close"]').first().waitFor({ timeout: LIVE_BOUND_MS });
  });

  it('Tiago’s channel is refused once Ana removes him, and the indicator says so', async () => {
    const cur = await api(ana.page, 'GET', `${group}/${membershipId}`);
    const del = await api(ana.page, 'DELETE', `${group}/${membershipId}?rev=${cur.json._rev}`);
    expect(del.status, del.text).toBe(200);
    const indicator = tid(tiago.page, 'live-indicator');
    await tiago.page.waitForFunction(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute('data-status') === 'refused', null, {
      timeout: LIVE_BOUND_MS,
    });
    await indicator.getByText('Live updates stopped: you no longer have access to this Group').waitFor();
    shots.push(await shot(tiago.page, 'live-refused-light', false));
    await tid(tiago.page, 'theme-toggle').click();
    await tiago.page.waitForFunction(() => document.documentElement.dataset.colorMode === 'dark');
    shots.push(await shot(tiago.page, 'live-refused-dark', false));
    await tid(tiago.page, 'theme-toggle').click();
    await tiago.page.setViewportSize({ width: 390, height: 800 });
    // At 390 px the text is for screen readers; the dot stays.
    await indicator.locator('.live-indicator__dot').waitFor();
    shots.push(await shot(tiago.page, 'live-refused-390', false));
    await tiago.page.setViewportSize({ width: 1280, height: 800 });
  });
});
