// Issue 22 item 12 in headless Chromium against the real Go server: the
// invitation screen names the inviter and the Group (not "Someone invited
// you"), and signing up from it starts with the invited address. At 1280
// and 390 px; screenshots go to test-results/invite-*.png.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, signUpWithGroup, startServer, tid, waitForLink, type Browser, type Server } from './harness';

const ANA = { email: 'ana.invite@oficina.test', name: 'Ana Dona', password: 'correct horse battery' };
const BIA = 'bia.invite@oficina.test';
const GROUP = 'Assistência Técnica do Zé';

let server: Server;
let ana: Browser;
let bia: Browser;
const shots: string[] = [];

describe('the invitation', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    bia = await openBrowser(server.baseURL);
    const group = await signUpWithGroup(ana.page, server.dataDir, ANA, GROUP);
    const r = await api(ana.page, 'POST', group, { klass: 'Membership', email: BIA, editor: false });
    expect(r.status, r.text).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [ana, bia], shots);
  }, 60_000);

  it('names the inviter and the Group, and prefills the invited address on sign-up', async () => {
    const page = bia.page;
    const link = await waitForLink(server.dataDir, BIA, /^\/invite$/);
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(link);
      const card = tid(page, 'invite-signed-out');
      await tid(page, 'invite-named').waitFor();
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(`Ana Dona invited you to ${GROUP}`);
      expect(text).toContain(`The invitation is for ${BIA}`);
      expect(text).not.toContain('Someone invited you');
      shots.push(await shot(page, `invite-named-${width}`));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await tid(page, 'invite-register').click();
    await page.waitForURL('**/user/register?**');
    expect(await page.locator('input[name=email]').inputValue()).toBe(BIA);
    shots.push(await shot(page, 'invite-register-prefilled'));
  });
});
