// Issue 11 end to end in headless Chromium against the real Go server: two
// wallets in USD and BRL made through the form → an exchange between them →
// a transfer across the currencies refused with the hint (and its way to an
// exchange) → a mapping rule → a Brazilian bank's CSV (ISO-8859-1, ";",
// decimal commas, a preamble line) imported with the rule applied → the same
// file again creates nothing → some imported expenses confirmed in bulk →
// the wallets' balances, the wallet's balance-over-time chart and the
// dashboard's panel show the right numbers. Screenshots go to
// test-results/finance-*.png (light and dark, and 390 px wide).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, shotBoth, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.finance@oficina.test', name: 'Ana Finance', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let group = '';
let usd = '';
let brl = '';
const shots: string[] = [];

/** latin1 encodes a string as ISO-8859-1 bytes, as Brazilian banks export. */
function latin1(s: string): Buffer {
  return Buffer.from(s, 'latin1');
}

const STATEMENT = latin1(
  'Extrato conta corrente - Agência 0001\r\n' +
    'Data;Histórico;Valor;Saldo\r\n' +
    '02/03/2026;PIX RECEBIDO João;1.500,00;1.500,00\r\n' +
    '15/03/2026;COMPRA POSTO SHELL;-230,45;1.269,55\r\n' +
    '20/03/2026;COMPRA MERCADO LIVRE;-120,00;1.149,55\r\n' +
    '28/03/2026;TARIFA PACOTE SERVIÇOS;-39,90;1.109,65\r\n',
);

async function save(page: Page) {
  await tid(page, 'save-record').click();
}

async function newWallet(page: Page, name: string, currency: string, start: string): Promise<string> {
  await page.goto(`/account/${group}/wallets/new`);
  await page.locator('input[name=name]').fill(name);
  await page.locator('input[name=currency]').fill(currency);
  await page.locator('input[name=start_balance]').fill(start);
  await save(page);
  await page.waitForURL(/\/wallets\/wll-[0-9a-f]{32}$/);
  return page.url().split('/').pop()!;
}

async function units(page: Page, testId: string): Promise<number> {
  const el = tid(page, testId);
  await el.waitFor();
  return Number(await el.getAttribute('data-units'));
}

describe('finance in a real browser', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('opens wallets in two currencies through the form', async () => {
    const page = ana.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Finanças');
    const adj = await api(page, 'POST', group, { klass: 'Adjustment', key: 'organize3', label: 'organize3', value: 'enabled' });
    expect(adj.status, adj.text).toBeLessThan(300);

    usd = await newWallet(page, 'Chase', 'USD', '1000.00');
    brl = await newWallet(page, 'Itaú', 'BRL', '500.00');
    await page.goto(`/account/${group}/wallets`);
    expect(await units(page, `wallet-balance-${usd}`)).toBe(100000);
    expect(await units(page, `wallet-balance-${brl}`)).toBe(50000);
  });

  it('exchanges between them, and refuses a transfer across currencies with the hint', async () => {
    const page = ana.page;
    await page.goto(`/account/${group}/exchanges/new`);
    await page.locator('input[name=description]').fill('Dólares para reais');
    await page.locator('select[name=source_wallet_id]').selectOption(usd);
    await page.locator('select[name=destination_wallet_id]').selectOption(brl);
    await page.locator('input[name=value_out]').fill('100.00');
    await page.locator('input[name=value_in]').fill('520.00');
    await page.locator('input[name=confirmed]').check({ force: true });
    await save(page);
    await page.waitForURL(/\/exchanges\/exc-[0-9a-f]{32}$/);

    await page.goto(`/account/${group}/transfers/new`);
    await page.locator('input[name=description]').fill('Across currencies');
    await page.locator('select[name=source_wallet_id]').selectOption(usd);
    await page.locator('select[name=destination_wallet_id]').selectOption(brl);
    await page.locator('input[name=value]').fill('10.00');
    await save(page);
    await tid(page, 'switch-to-exchange').waitFor();
    await page.getByText(/create an exchange/i).first().waitFor();
    shots.push(await shot(page, 'finance-transfer-hint'));
    expect(page.url()).toMatch(/\/transfers\/new$/);
  });

  it('imports a Brazilian bank statement with a mapping rule applied, once', async () => {
    const page = ana.page;
    const rule = await api(page, 'POST', group, {
      klass: 'Mapping', description: 'Fuel', target: 'outgo', field_to_watch: 'description', kind_of_watch: 'contains',
      text_to_match: 'posto', kind_of_change: 'replace', field_to_change: 'categories', text_to_change: 'combustível',
    });
    expect(rule.status, rule.text).toBe(201);

    await page.goto(`/wallets-upload?wallet=${brl}`);
    await tid(page, 'upload-file').setInputFiles({ name: 'extrato-marco.csv', mimeType: 'text/csv', buffer: STATEMENT });
    await tid(page, 'upload-totals').waitFor();
    await tid(page, 'upload-row-4').waitFor();
    expect(await page.locator('select[name=date_format]').inputValue()).toBe('DD/MM/YYYY');
    await expect.poll(() => tid(page, 'upload-row-4').textContent()).toContain('combustível');
    expect(await tid(page, 'upload-row-3').textContent()).toContain('PIX RECEBIDO João');
    // The file lives in the page, so the themes are switched in place rather than by a reload.
    shots.push(await shot(page, 'finance-upload-light'));
    await tid(page, 'theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.colorMode === 'dark');
    shots.push(await shot(page, 'finance-upload-dark'));
    await tid(page, 'theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.colorMode === 'light');

    // The live check: a wrong date format names the line; the right one clears it.
    await page.locator('select[name=date_format]').selectOption('MM/DD/YYYY');
    await tid(page, 'upload-problem').waitFor();
    expect(await tid(page, 'upload-problem').textContent()).toMatch(/Line \d+: The date column or the date format is wrong/);
    await page.locator('select[name=date_format]').selectOption('DD/MM/YYYY');
    await tid(page, 'upload-problem').waitFor({ state: 'detached' });

    await tid(page, 'upload-import').click();
    await tid(page, 'upload-result').waitFor();
    expect(await tid(page, 'upload-result').textContent()).toMatch(/4 created/);

    // The same file again: everything is "imported before", nothing to import.
    await tid(page, 'upload-file').setInputFiles({ name: 'extrato-marco.csv', mimeType: 'text/csv', buffer: STATEMENT });
    await tid(page, 'upload-row-4').and(page.locator('[data-status="imported"]')).waitFor();
    expect(await tid(page, 'upload-import').isDisabled()).toBe(true);
    expect(await tid(page, 'upload-from-profile').count()).toBe(1);

    // Imported records stay out of the balance.
    await page.goto(`/account/${group}/wallets`);
    expect(await units(page, `wallet-balance-${brl}`)).toBe(50000 + 52000);
  });

  it('confirms imported expenses in bulk, and the balances, chart and dashboard follow', async () => {
    const page = ana.page;
    await page.goto(`/account/${group}/outgos?wallet=${brl}&state=imported`);
    await tid(page, 'record-table').waitFor();
    await page.getByRole('checkbox', { name: /COMPRA POSTO SHELL/ }).check();
    await page.getByRole('checkbox', { name: /TARIFA PACOTE/ }).check();
    await tid(page, 'bulk-confirm').click();
    await tid(page, 'bulk-result').waitFor();
    shots.push(await shot(page, 'finance-outgos'));

    // 500 + 520 (exchange) − 230.45 − 39.90 confirmed; the others pending review.
    await page.goto(`/account/${group}/wallets`);
    await expect.poll(() => units(page, `wallet-balance-${brl}`)).toBe(50000 + 52000 - 23045 - 3990);
    expect(await units(page, `wallet-balance-${usd}`)).toBe(100000 - 10000);
    shots.push(...(await shotBoth(page, 'finance-wallets', () => tid(page, `wallet-balance-${brl}`).waitFor())));

    await page.goto(`/account/${group}/wallets/${brl}`);
    await tid(page, 'balance-chart').and(page.locator('[data-state="ready"]')).waitFor();
    shots.push(await shot(page, 'finance-wallet'));

    await page.goto(`/account/${group}`);
    await tid(page, 'user-menu').click();
    await tid(page, 'module-organize3').click();
    await tid(page, 'finance-dashboard').waitFor();
    await tid(page, 'finance-range-12m').click();
    // The range's records are a read of their own: the total may still be the last range's for a moment.
    await expect.poll(() => units(page, 'finance-expense-BRL')).toBe(23045 + 3990);
    await tid(page, 'finance-chart').and(page.locator('[data-state="ready"]')).waitFor();
    shots.push(
      ...(await shotBoth(page, 'finance-dashboard', async () => {
        await tid(page, 'finance-range-12m').click();
        await tid(page, 'finance-chart').and(page.locator('[data-state="ready"]')).waitFor();
      })),
    );
  });

  it('fits a phone: the import and the wallets at 390 px', async () => {
    const page = ana.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`/wallets-upload?wallet=${brl}`);
      await tid(page, 'upload-file').setInputFiles({ name: 'extrato.csv', mimeType: 'text/csv', buffer: STATEMENT });
      await tid(page, 'upload-totals').waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'finance-upload-390'));
      await page.goto(`/account/${group}/wallets`);
      await tid(page, `wallet-balance-${brl}`).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'finance-wallets-390'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
