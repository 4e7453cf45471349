// Issue 22 item 14 in headless Chromium against the real Go server: money
// typed in by hand stays pending (SPEC §3–4: a confirmed expense cannot be
// deleted, so a typo saved confirmed would need undoing first), and the
// screen says plainly what it does to the balance, with a one-click
// Confirm that moves it. At 1280 and 390 px; screenshots go to
// test-results/money-*.png.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.money@oficina.test', name: 'Ana Caixa', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let group = '';
let wallet = '';
const shots: string[] = [];

async function balance(): Promise<{ balance: number; pending: number }> {
  const r = await api(ana.page, 'GET', `${group}/_design/wallet-balances/_view/by-wallet?group_level=1`);
  const row = r.json.rows.find((x: { key: unknown }) => (Array.isArray(x.key) ? x.key[0] : x.key) === wallet);
  return { balance: row?.value?.balance ?? 0, pending: row?.value?.pending_transactions ?? 0 };
}

describe('money entered by hand', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    group = await signUpWithGroup(ana.page, server.dataDir, ANA, 'Oficina do Caixa');
    wallet = (await api(ana.page, 'POST', group, { klass: 'Wallet', name: 'Caixa', currency: 'USD', start_balance: 100000 })).json.id;
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('shows the pending effect of an expense typed in, and Confirm moves the balance', async () => {
    const page = ana.page;
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/account/${group}/outgos/new`);
      await page.locator('input[name=description]').fill(`Peças ${width}`);
      await page.locator('select[name=wallet_id]').selectOption(wallet);
      await page.locator('input[name=value]').fill('150.00');
      expect(await page.locator('input[name=confirmed]').isChecked()).toBe(false);
      await tid(page, 'save-record').click();
      await page.waitForURL(/\/outgos\/out-[0-9a-f]{32}$/);
      const before = await balance();
      const effect = tid(page, 'pending-effect');
      await effect.waitFor();
      const now = (before.balance / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
      const after = ((before.balance - 15000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
      // The page may first draw the wallet's balance from the cache of the
      // last visit, then the fresh one: wait for the server's figures.
      await expect
        .poll(async () => ((await effect.textContent()) ?? '').replace(/\s/g, ''), { timeout: 10_000 })
        .toContain(`whosebalanceisUS$${now}·confirmed,thebalancewillbeUS$${after}`);
      expect((await effect.textContent()) ?? '').toContain('It does not count in Caixa yet, whose balance is');
      shots.push(await shot(page, `money-pending-${width}`));
      await tid(page, 'pending-confirm').click();
      await tid(page, 'pending-effect').waitFor({ state: 'detached' });
      await expect.poll(async () => (await balance()).balance).toBe(before.balance - 15000);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
