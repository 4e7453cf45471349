// Issue 22 item 8 in headless Chromium against the real Go server: a Group
// the user does not belong to shows one refusal page — not the screen's
// title, "New ticket" and filters above a "Forbidden" — and names the Group
// only when the user may know it (an invitation to it waits for them). At
// 1280 and 390 px; screenshots go to test-results/refused-*.png.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, newGroup, openBrowser, preflight, registerAndConfirm, shot, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.refused@oficina.test', name: 'Ana Dona', password: 'correct horse battery' };
const DANI = { email: 'dani.refused@oficina.test', name: 'Dani Técnica', password: 'correct horse battery' };
const INVITED = 'Assistência Técnica do Zé';
const CLOSED = 'Oficina Fechada';

let server: Server;
let ana: Browser;
let dani: Browser;
let invited = '';
let closed = '';
const shots: string[] = [];

describe('a Group the user does not belong to', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    dani = await openBrowser(server.baseURL);
    await registerAndConfirm(ana.page, server.dataDir, ANA);
    await registerAndConfirm(dani.page, server.dataDir, DANI);
    invited = await newGroup(ana.page, INVITED);
    closed = await newGroup(ana.page, CLOSED);
    const inv = await api(ana.page, 'POST', invited, { klass: 'Membership', email: DANI.email, editor: false });
    expect(inv.status, inv.text).toBe(201);
    // Dani has a Group of her own, so the app has somewhere to send her.
    await api(dani.page, 'POST', 'accounts', { name: 'Dani Celulares' });
  }, 120_000);

  afterAll(async () => {
    await closeAll(server, [ana, dani], shots);
  }, 60_000);

  it('shows one refusal page, without the screen above it, and keeps the Group unnamed', async () => {
    const page = dani.page;
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const path of [`/account/${closed}/tickets`, `/account/${closed}/tickets/new`, `/account/${closed}`, `/account/${closed}/admin`]) {
        await page.goto(path);
        const refused = tid(page, 'group-refused');
        await refused.waitFor();
        const main = (await page.locator('main#main').textContent()) ?? '';
        expect(main, path).toContain('This Group is not yours to open');
        expect(main, path).not.toMatch(/Forbidden|New ticket|Ticket board|Filters|Recent changes|not allowed/);
        expect(await tid(page, 'error-alert').count(), path).toBe(0);
        expect(await page.locator('body').textContent(), path).not.toContain(CLOSED);
      }
      shots.push(await shot(page, `refused-closed-${width}`));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('names the Group the user is invited to, with the way to the invitation', async () => {
    const page = dani.page;
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/account/${invited}/tickets`);
      const refused = tid(page, 'group-refused');
      await refused.waitFor();
      // The Group's name comes with the user's invitations, read after the page draws.
      await expect.poll(() => refused.textContent()).toContain(`You are invited to ${INVITED}`);
      shots.push(await shot(page, `refused-invited-${width}`));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await tid(page, 'group-refused').getByRole('link', { name: 'See the invitation' }).click();
    await page.waitForURL('**/invite');
    // Accepted, the same address opens the Group's tickets.
    await tid(page, 'accept-invite').click();
    await page.waitForURL(`**/account/${invited}`);
    await page.goto(`/account/${invited}/tickets`);
    await page.locator('[data-route="tickets#index"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="loading-spinner"]')?.getAttribute('data-busy') === 'false');
    expect(await tid(page, 'group-refused').count()).toBe(0);
  });
});
