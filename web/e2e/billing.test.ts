// Issue 15's billing screens end to end in headless Chromium against the
// real Go server and stripe-mock (bin/stripe-mock, on loopback ports): a
// free Group → its billing page with the 15-row plan table → a billing
// email → pro through the checkout (stripe.com's embedded frame is out of
// reach here: the server's test-only --stripe-test-checkout=on route
// completes the session the way the webhook would, through the screen's
// "Complete test payment" button) → the billing page shows pro → switching
// back to free is locked for 24 h (the sentence, the disabled button, the
// server's 409) → the usage page's chart and table (from snapshots the
// limits' test-only route takes) → a free Group over
// 1,000 records pushed past its 30 days (the limits' test-only backdate)
// shows the view-only banner, and its writes fail. Screenshots go to
// test-results/billing-*.png (light, dark, 390 px).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, freePort, openBrowser, preflight, REPO_DIR, shot, shotBoth, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const BEA = { email: 'bea.billing@oficina.test', name: 'Bea Billing', password: 'correct horse battery' };
const SECRET = 'sk_test_oficina';

let server: Server;
let bea: Browser;
let mock: ChildProcess | null = null;
let proxy: HttpServer | null = null;
let group = '';
let crowded = '';
const shots: string[] = [];

/** stripe-mock on free loopback ports, ready once it answers a canned customer. */
async function startStripeMock(): Promise<string> {
  const bin = process.env.OFICINA_STRIPE_MOCK || join(REPO_DIR, 'bin', 'stripe-mock');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make deps\`, or GOBIN=$PWD/bin go install github.com/stripe/stripe-mock@v0.203.0`);
  const [http, https] = [await freePort(), await freePort()];
  mock = spawn(bin, ['-http-addr', `127.0.0.1:${http}`, '-https-addr', `127.0.0.1:${https}`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/v1/customers/cus_probe`, { headers: { Authorization: `Bearer ${SECRET}` } });
      if (res.status < 500) return url;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('stripe-mock did not start in 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A loopback proxy in front of stripe-mock: v0.203.0 bundles a newer API
 * spec than stripe-go's pinned version, where embedded Checkout is called
 * "embedded_page" (shared/billing/billingtest does the same).
 */
async function startStripeProxy(target: string): Promise<string> {
  const port = await freePort();
  const t = new URL(target);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks).toString();
      if (req.url?.startsWith('/v1/checkout/sessions') && /(^|&)ui_mode=embedded(&|$)/.test(body)) body = body.replace(/(^|&)ui_mode=embedded(&|$)/, '$1ui_mode=embedded_page$2');
      const headers = { ...req.headers, host: t.host, 'content-length': String(Buffer.byteLength(body)) };
      const up = request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((ok) => proxy!.listen(port, '127.0.0.1', ok));
  return `http://127.0.0.1:${port}`;
}

async function planName(page: Browser['page']): Promise<string> {
  const el = tid(page, 'billing-plan-name');
  await el.waitFor().catch(async (err: unknown) => {
    throw new Error(`${String(err)}\n--- page ---\n${(await page.locator('main').innerText()).slice(0, 800)}`);
  });
  return (await el.getAttribute('data-plan')) ?? '';
}

describe('billing in a real browser', () => {
  beforeAll(async () => {
    const stripe = await startStripeProxy(await startStripeMock());
    server = await startServer(preflight(), [
      '--stripe-secret-key', SECRET,
      '--stripe-publishable-key', 'pk_test_oficina',
      '--stripe-webhook-secret', 'whsec_oficina_test_secret',
      '--stripe-api-url', stripe,
      '--stripe-test-checkout', 'on',
    ]);
    bea = await openBrowser(server.baseURL);
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [bea], shots);
    proxy?.close();
    mock?.kill();
  }, 60_000);

  it('shows a free Group\'s billing page with the 15-row plan table and its notes', async () => {
    const page = bea.page;
    group = await signUpWithGroup(page, server.dataDir, BEA, 'Oficina Cobrança');
    const b = await api(page, 'GET', `${group}/_billing`);
    expect(b.status, b.text).toBe(200);
    expect(b.json.plan).toBe('free');
    // The new Group's dashboard first (the startup settles on it), then its billing page.
    await page.goto(`/account/${group}`);
    await page.getByText('Recent changes').waitFor();
    await page.goto('/billing');
    expect(await planName(page)).toBe('free');
    await tid(page, 'plan-table').waitFor();
    expect(await tid(page, 'plan-row').count()).toBe(15);
    expect(await tid(page, 'plan-notes').locator('li').count()).toBe(5);
    expect(await tid(page, 'plan-table').textContent()).toContain('US$6.00 per 100 MB per month');
    await tid(page, 'tile-records').waitFor();
    await tid(page, 'backups-panel').waitFor();
  });

  it('needs a billing email: an empty one is refused under the field, a good one is kept', async () => {
    const page = bea.page;
    await tid(page, 'billing-email-needed').waitFor();
    await tid(page, 'billing-email-edit').click();
    const modal = tid(page, 'billing-email-modal');
    await modal.locator('input[name=billing_email]').fill('');
    await tid(page, 'billing-email-save').click();
    await modal.getByText('is invalid').waitFor();
    await modal.locator('input[name=billing_email]').fill('pagamentos@oficina.test');
    await tid(page, 'billing-email-save').click();
    await modal.waitFor({ state: 'detached' });
    await tid(page, 'billing-email').getByText('pagamentos@oficina.test').waitFor();
    shots.push(...(await shotBoth(page, 'billing-free', () => tid(page, 'plan-table').waitFor())));
  });

  it('goes free → pro through the checkout and its test completion', async () => {
    const page = bea.page;
    await page.goto('/billing');
    await tid(page, 'choose-pro').click();
    await page.waitForURL(/\/checkout\/ppr-[0-9a-f]+$/);
    expect(await tid(page, 'checkout-price').textContent()).toContain('US$6.00 per 100 MB per month');
    expect(await tid(page, 'legal-links').locator('a').count()).toBe(3);
    await tid(page, 'checkout-start').click();
    await tid(page, 'test-complete').waitFor();
    shots.push(await shot(page, 'billing-checkout-light'));
    await tid(page, 'test-complete').click();
    await tid(page, 'checkout-done').waitFor();
    await tid(page, 'checkout-done').getByRole('link').click();
    await page.waitForURL(/\/billing$/);
    await page.waitForFunction(() => document.querySelector('[data-testid="billing-plan-name"]')?.getAttribute('data-plan') === 'pro', null, { timeout: 15_000 });
    expect(await planName(page)).toBe('pro');
  });

  it('locks switching back to free for 24 hours, in a sentence, and the server refuses too', async () => {
    const page = bea.page;
    await tid(page, 'switch-locked').first().waitFor();
    expect(await tid(page, 'switch-locked').first().textContent()).toMatch(/Plan changes are locked until .+: a Group's plan can change once every 24 hours\./);
    // By keyboard: Enter on the button opens the confirmation, Escape closes it.
    await tid(page, 'choose-free').focus();
    await page.keyboard.press('Enter');
    const modal = tid(page, 'free-modal');
    await modal.waitFor();
    expect(await modal.locator('[data-testid="switch-locked"]').count()).toBe(1);
    expect(await tid(page, 'plan-change-confirm').isDisabled()).toBe(true);
    shots.push(await shot(page, 'billing-locked-light'));
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    const r = await api(page, 'PUT', `${group}/_design/subscription/_update/free/${group}`, {});
    expect(r.status, r.text).toBe(409);
    shots.push(...(await shotBoth(page, 'billing-pro', () => tid(page, 'plan-table').waitFor())));
  });

  it('backs the Group up, lists the backup with its size and date, and restores it into a new Group', async () => {
    const page = bea.page;
    await page.goto('/billing');
    await tid(page, 'backups-empty').waitFor();
    await tid(page, 'backup-start').click();
    await tid(page, 'backup-started').waitFor();
    const row = tid(page, 'backup-row').first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await row.textContent()).toMatch(/\d+(\.\d)? (B|kB|MB)/);
    expect(await row.locator('[data-testid="backup-download"]').getAttribute('href')).toMatch(new RegExp(`^/api/${group}/_backups/.+`));
    await row.locator('[data-testid="backup-restore"]').click();
    const modal = tid(page, 'restore-modal');
    await modal.locator('input[name=name]').fill('Oficina Restaurada');
    await tid(page, 'restore-confirm').click();
    await tid(page, 'restore-done').waitFor({ timeout: 30_000 });
    expect(await tid(page, 'restore-done').textContent()).toContain('Oficina Restaurada');
    shots.push(await shot(page, 'billing-restored-light', false));
    await page.keyboard.press('Escape');
  });

  it('fits the billing page into 390 px', async () => {
    const page = bea.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto('/billing');
      await tid(page, 'plan-table').waitFor();
      shots.push(await shot(page, 'billing-390'));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.goto('/usage?view=table');
      await tid(page, 'usage-view-table').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('shows the usage page as a chart and as a table', async () => {
    const page = bea.page;
    // The daily snapshot job is off here: the page says the history is empty. The limits
    // module's test-only route then takes two real snapshots, yesterday's and today's.
    await page.goto('/usage');
    await tid(page, 'usage-empty').waitFor();
    // Yesterday three customers, today two more and a ticket.
    for (const [daysAgo, records] of [
      [1, [{ klass: 'Customer', name: 'Ana' }, { klass: 'Customer', name: 'Bruno' }, { klass: 'Customer', name: 'Carla' }]],
      [0, [{ klass: 'Customer', name: 'Davi' }, { klass: 'Customer', name: 'Eva' }, { klass: 'Ticket', content: 'Screen replacement', priority: 'high', status: 'open' }]],
    ] as const) {
      const bulk = await api(page, 'POST', `${group}/_bulk_docs`, { docs: records });
      expect(bulk.status, bulk.text).toBe(201);
      await expect
        .poll(async () => (await api(page, 'GET', `${group}/_limits`)).json?.records, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(daysAgo === 1 ? 3 : 6);
      const snap = await api(page, 'POST', `${group}/_limits/test/snapshot`, { days_ago: daysAgo });
      expect(snap.status, snap.text).toBe(200);
    }
    await page.goto('/usage');
    await page.waitForFunction(() => document.querySelector('[data-testid="usage-chart"]')?.getAttribute('data-state') === 'ready');
    shots.push(...(await shotBoth(page, 'billing-usage-chart', () => page.waitForFunction(() => document.querySelector('[data-testid="usage-chart"]')?.getAttribute('data-state') === 'ready'))));
    await tid(page, 'usage-view-table').click();
    await tid(page, 'usage-by-records').click();
    await tid(page, 'usage-table').waitFor();
    expect(await tid(page, 'usage-row').count()).toBeGreaterThan(0);
    await expect.poll(() => tid(page, 'usage-table').textContent()).toContain('Customer');
    // Each toggle is its own navigation, and the router runs its loaders before the address
    // changes: the table can show while the second toggle's navigation is still under way.
    await expect.poll(() => page.url()).toMatch(/view=table/);
    await expect.poll(() => page.url()).toMatch(/by=records/);
    shots.push(await shot(page, 'billing-usage-table-light'));
  });

  it('shows the view-only banner for a free Group past its 30 days over 1,000 records, and its writes fail', async () => {
    const page = bea.page;
    const g = await api(page, 'POST', 'accounts', { name: 'Oficina Lotada' });
    expect(g.status, g.text).toBe(201);
    crowded = g.json.id;
    const customers = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ klass: 'Customer', name: `Cliente ${from + i}` }));
    for (const [from, n] of [
      [0, 500],
      [500, 500],
      [1000, 5],
    ] as const) {
      const r = await api(page, 'POST', `${crowded}/_bulk_docs`, { docs: customers(from, n) });
      expect(r.status, r.text.slice(0, 300)).toBeLessThan(300);
    }
    // The counts follow the change stream within a moment.
    const deadline = Date.now() + 15_000;
    let over = await api(page, 'GET', `${crowded}/_limits`);
    while (!(over.json?.records > 1000) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      over = await api(page, 'GET', `${crowded}/_limits`);
    }
    expect(over.json.records, over.text).toBeGreaterThan(1000);
    await page.goto(`/account/${crowded}`);
    await tid(page, 'over-limit-banner').waitFor();
    expect(await tid(page, 'over-limit-banner').textContent()).toMatch(/In (29|30) days .* it becomes view-only/);
    const back = await api(page, 'POST', `${crowded}/_limits/test/backdate`, { days: 31 });
    expect(back.status, back.text).toBe(200);
    expect(back.json.view_only).toBe(true);
    await page.goto(`/account/${crowded}`);
    const banner = tid(page, 'view-only-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('saving changes will fail. Delete records or upgrade');
    expect(await banner.getByRole('link', { name: 'Upgrade the plan' }).getAttribute('href')).toBe('/billing');
    const w = await api(page, 'POST', crowded, { klass: 'Customer', name: 'One more' });
    expect(w.status).toBe(403);
    expect(w.text).toContain('view-only: delete records or upgrade');
    shots.push(...(await shotBoth(page, 'billing-view-only', () => tid(page, 'view-only-banner').waitFor())));
  });
});
