// Issue 8 items 17–25 in headless Chromium against the real Go server: what
// a new user trips over on the record screens and in onboarding. Plans on
// a fresh install's landing page; a new Group's dashboard without its
// settings; the desktop navbar on one row; generic forms that check before
// sending and the server that refuses what they miss; references picked
// and shown by name; enums translated; money per locale; comments added
// from a record; history without internal fields; names A→Z; a non-admin
// shown what they may not do; a refused Group named in sentences, the
// navbar not following it; unbuilt screens saying what is coming; the
// profile tabs at 390 px. Screenshots go to test-results/onboarding-*.png.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, registerAndConfirm, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const CLEO = { email: 'cleo.onboard@oficina.test', name: 'Cleo Onboard', password: 'correct horse battery' };
const DANI = { email: 'dani.onboard@oficina.test', name: 'Dani Member', password: 'correct horse battery' };

let server: Server;
let cleo: Browser;
let dani: Browser;
let group = '';
let privateGroup = '';
const shots: string[] = [];

async function count(page: Page, klass: string): Promise<number> {
  const r = await api(page, 'POST', `${group}/_find`, { selector: { klass }, limit: 100 });
  return (r.json.docs ?? []).length;
}

describe('a new user on the record screens and in onboarding', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    cleo = await openBrowser(server.baseURL);
    dani = await openBrowser(server.baseURL);
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [cleo, dani], shots);
  }, 60_000);

  it('lists the plans on a fresh install (item 24)', async () => {
    const page = cleo.page;
    await page.goto('/');
    await tid(page, 'pricing-plans').waitFor();
    expect(await tid(page, 'pricing-empty').count()).toBe(0);
  });

  it('opens a new Group on a dashboard without its settings, the navbar on one row at 1280 px (items 20, 24)', async () => {
    const page = cleo.page;
    group = await signUpWithGroup(page, server.dataDir, CLEO, 'Cleo Fix');
    const p = await api(page, 'POST', 'accounts', { name: 'Cleo Private' });
    privateGroup = p.json.id;
    await page.goto(`/account/${group}`);
    await tid(page, 'timeline').waitFor();
    const kinds = await page.locator('[data-testid="change-card"]').allTextContents();
    expect(kinds.join(' ')).not.toMatch(/Setting|checklist|confirmed-plan/);
    // One row: every top-level navbar item sits on the brand's line.
    const rows = await page.evaluate(() => {
      const tops = [...document.querySelectorAll('.navbar__inner > *')]
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0)
        .map((r) => Math.round(r.top + r.height / 2));
      return new Set(tops.map((t) => Math.round(t / 16))).size;
    });
    expect(rows).toBe(1);
    shots.push(await shot(page, 'onboarding-dashboard-light'));
  });

  it('checks a generic form before sending, and the server refuses what it cannot check (items 17, 19)', async () => {
    const page = cleo.page;
    await page.goto(`/account/${group}/wallets/new`);
    await tid(page, 'record-form').waitFor();
    await page.locator('form button[type=submit]').click();
    await tid(page, 'record-form').getByText("can't be blank").first().waitFor();
    expect(await count(page, 'Wallet')).toBe(0);
    await page.locator('input[name=name]').fill('Caixa da loja');
    await page.locator('input[name=currency]').fill('ABC');
    await page.locator('form button[type=submit]').click();
    await tid(page, 'record-form').getByText('is not a known currency code (ISO 4217, like USD or BRL)').waitFor();
    expect(await count(page, 'Wallet')).toBe(0);
    shots.push(await shot(page, 'onboarding-form-errors-light'));
    await page.locator('input[name=currency]').fill('brl');
    await page.locator('input[name=start_balance]').fill('-10.50');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(/\/wallets\/wll-/);
    const details = tid(page, 'detail-list');
    await details.getByText('BRL').waitFor();
    // Money per locale, never raw cents; "Created at" once.
    await details.getByText(/R\$\s?10\.50/).waitFor();
    expect(await details.getByText('-1050').count()).toBe(0);
    expect(await details.getByText('Created at').count()).toBe(1);
  });

  it('picks a reference by name, shows it as a link, keeps line breaks and adds a comment (items 18, 19, 24)', async () => {
    const page = cleo.page;
    await page.goto(`/account/${group}/outgos/new`);
    await tid(page, 'record-form').waitFor();
    await page.locator('input[name=description]').fill('Peças\nTela e bateria');
    await page.locator('input[name=value]').fill('-3');
    // The expense form (features/finance) picks the wallet by name from a native select.
    const wallet = page.locator('select[name=wallet_id]');
    await wallet.locator('option', { hasText: 'Caixa da loja' }).waitFor({ state: 'attached' });
    const label = (await wallet.locator('option', { hasText: 'Caixa da loja' }).textContent()) ?? '';
    await wallet.selectOption({ label });
    await page.locator('form button[type=submit]').click();
    await tid(page, 'record-form').getByText('must be greater than or equal to 0').first().waitFor();
    expect(await count(page, 'Outgo')).toBe(0);
    await page.locator('input[name=value]').fill('1,234.50');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(/\/outgos\/out-/);
    const details = tid(page, 'detail-list');
    await details.getByRole('link', { name: 'Caixa da loja' }).waitFor();
    await details.getByText('1,234.50').waitFor();
    expect(await details.getByText(/^wll-/).count()).toBe(0);
    await tid(page, 'comment-form').locator('textarea').fill('Bought at the usual shop');
    await tid(page, 'comment-form').locator('button[type=submit]').click();
    await tid(page, 'comments-panel').getByText('Bought at the usual shop').waitFor();
    shots.push(await shot(page, 'onboarding-record-show-light'));
  });

  it('translates enums and sorts names A→Z (items 19, 24)', async () => {
    const page = cleo.page;
    for (const name of ['Zeca Motos', 'Ana Bikes', 'Marta Cell']) {
      const r = await api(page, 'POST', group, { klass: 'Customer', name });
      expect(r.status, r.text).toBe(201);
    }
    await page.goto(`/account/${group}/customers`);
    const rows = tid(page, 'record-table').locator('tbody tr');
    await rows.getByText('Zeca Motos').waitFor();
    const first = await rows.first().textContent();
    expect(first).toContain('Ana Bikes');
    await api(page, 'POST', group, { klass: 'Ticket', content: 'Tela quebrada', priority: 'high', status: 'open' });
    await page.goto(`/account/${group}/mappings/new`);
    await tid(page, 'record-form').waitFor();
    const options = await page.locator('select[name=target] option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['Expense', 'Income']));
    expect(options).not.toContain('outgo');
  });

  it('keeps internal fields out of a record history (item 20)', async () => {
    const page = cleo.page;
    await page.goto(`/account/${group}/memberships`);
    await tid(page, 'record-table').getByRole('link').first().click();
    await tid(page, 'history-panel').waitFor();
    await tid(page, 'history-list').waitFor();
    expect(await tid(page, 'history-panel').textContent()).not.toMatch(/Database|db_name/);
  });

  it('shows a non-admin what they may not do, with the reason (item 23)', async () => {
    const page = dani.page;
    await registerAndConfirm(page, server.dataDir, DANI);
    const r = await api(cleo.page, 'POST', group, { klass: 'Membership', email: DANI.email, editor: false, report_view: false });
    expect(r.status, r.text).toBe(201);
    await page.goto('/invite');
    await tid(page, 'accept-invite').click();
    await page.waitForURL(`**/account/${group}`);
    await page.goto(`/account/${group}/memberships`);
    await tid(page, 'new-membership-disabled').getByText('Only the Group’s administrators can invite people.').waitFor();
    await page.goto(`/account/${group}/memberships/new`);
    await tid(page, 'invite-admins-only').waitFor();
    expect(await page.locator('input[name=editor]').count()).toBe(0);
    shots.push(await shot(page, 'onboarding-non-admin-light'));
  });

  it('names a refused Group in sentences and the navbar does not follow it (item 21)', async () => {
    const page = dani.page;
    await page.goto(`/account/${privateGroup}`);
    // Issue 22 item 8: one refusal page, in sentences.
    const refused = tid(page, 'group-refused');
    await refused.waitFor();
    const text = (await refused.textContent()) ?? '';
    expect(text).toContain('You are not a member of this Group.');
    expect(text).not.toMatch(/you-are-not-allowed|[a-z]+-[a-z]+-[a-z]+-[a-z]+/);
    const brand = await page.locator('a.navbar__brand').getAttribute('href');
    expect(brand).not.toContain(privateGroup);
    shots.push(await shot(page, 'onboarding-forbidden-light'));
  });

  it('opens the usage page, built now, with its chart and table choices (item 25)', async () => {
    const page = cleo.page;
    await page.goto('/usage');
    await tid(page, 'usage-view-chart').waitFor();
    await tid(page, 'usage-by-records').waitFor();
    expect(await page.locator('[data-testid="pending-screen"]').count()).toBe(0);
  });

  it('fits the profile tabs into 390 px (item 24)', async () => {
    const page = cleo.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/user/profile');
    await tid(page, 'user-menu').waitFor().catch(() => undefined);
    await page.getByRole('tablist').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    shots.push(await shot(page, 'onboarding-profile-390-light'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
