// Issue 22 item 7 in headless Chromium against the real Go server: every
// route of the route table (SPEC §2, read from app/route-table.ts so a new
// route is covered the day it is added) opened in a fresh tab — no
// per-tab Group in session storage — and then reloaded, lands on its own
// screen in the right Group: never on the dashboard, never on "select a
// group profile". The Group-less module addresses (/ticket-board, /disk,
// /usage…) start in the Group last chosen on the device; on a device that
// never chose one, in the only Group; and with several, the choice goes
// back to the address asked for.

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/app/route-table';
import { api, closeAll, newGroup, openBrowser, preflight, registerAndConfirm, setGroupSetting, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.routes@oficina.test', name: 'Ana Rotas', password: 'correct horse battery' };
const DANI = { email: 'dani.routes@oficina.test', name: 'Dani Rotas', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let dani: Browser;
let groupA = '';
let groupB = '';
const GROUP_B = 'Assistência Técnica do Zé';
const shots: string[] = [];

async function created(page: Page, db: string, doc: Record<string, unknown>): Promise<string> {
  const r = await api(page, 'POST', db, doc);
  expect(r.status, `${String(doc.klass)}: ${r.text}`).toBe(201);
  return r.json.id as string;
}

async function firstId(page: Page, db: string, selector: Record<string, unknown>): Promise<string> {
  const r = await api(page, 'POST', `${db}/_find`, { selector, limit: 1 });
  const id = r.json?.docs?.[0]?._id as string | undefined;
  expect(id, `no ${JSON.stringify(selector)} in ${db}`).toBeTruthy();
  return id!;
}

const fake = (prefix: string) => `${prefix}-${'0123456789abcdef'.repeat(2)}`;

/** What a route is opened with: its path filled with real ids of Group B. */
function fill(path: string, ids: Record<string, string>, set: string | undefined): string {
  return (
    '/' +
    path
      .replace(':account_id', groupB)
      .replace(':record_id', ids[set ?? ''] ?? fake('xxx'))
      .replace(':dir_id', ids.dir ?? fake('fle'))
      .replace(':price_id', 'free')
      .replace(':token', 'not-a-real-token')
  );
}

/** The screens a signed-in user is sent away from by design (they are for signed-out visitors or pick a Group themselves). */
const LEAVES = new Set(['app', 'appHtml', 'user#login', 'user#register', 'not-found']);

interface Opened {
  name: string;
  path: string;
  route: string;
  pathname: string;
  selectGroup: number;
  routeError: number;
  group: string;
  navbars: number;
  text: number;
}

// A bare route (the customer's public pages) has no navbar to wait for.
async function settle(page: Page, name: string, bare = false): Promise<Opened> {
  // The route's screen, or where the app went instead (the home page's
  // group choice, another route, the route error page).
  await page
    .waitForFunction(
      (n) =>
        document.querySelector(`[data-route="${n}"]`) ||
        document.querySelector('[data-testid="select-group"], [data-testid="route-error"]'),
      name,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.locator('main#main').waitFor();
  if (!bare) {
    await page
      .locator('.navbar__group-name')
      .waitFor()
      .catch((err: Error) => {
        throw new Error(`${name} (${page.url()}): ${err.message}`);
      });
  }
  // Settled: no navigation, fetch or lazy chunk under way (the navbar's
  // spinner says so; a bare page has none, and its own loader is below).
  if (!bare) {
    await page.waitForFunction(() => document.querySelector('[data-testid="loading-spinner"]')?.getAttribute('data-busy') === 'false');
  }
  await page.waitForFunction(() => !document.querySelector('main#main [role="status"] .amplify-loader'));
  return page.evaluate(
    (n) => ({
      name: n,
      path: '',
      route: document.querySelector('[data-route]')?.getAttribute('data-route') ?? '',
      pathname: window.location.pathname,
      selectGroup: document.querySelectorAll('[data-testid="select-group"]').length,
      routeError: document.querySelectorAll('[data-testid="route-error"]').length,
      group: document.querySelector('.navbar__group-name')?.textContent ?? '',
      navbars: document.querySelectorAll('.navbar').length,
      text: (document.querySelector('main#main')?.textContent ?? '').trim().length,
    }),
    name,
  );
}

/** openFresh opens path in a new tab (empty session storage, the device's local storage), then reloads it. */
async function openFresh(context: BrowserContext, name: string, path: string, bare = false): Promise<[Opened, Opened]> {
  const page = await context.newPage();
  try {
    await page.goto(path);
    const first = { ...(await settle(page, name, bare)), path };
    await page.reload();
    const again = { ...(await settle(page, name, bare)), path };
    return [first, again];
  } finally {
    await page.close();
  }
}

describe('every route of the route table, opened fresh and reloaded', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    dani = await openBrowser(server.baseURL);
    const page = ana.page;
    groupA = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Norte');
    groupB = await newGroup(page, GROUP_B);
    for (const key of ['organize3', 'exoreader', 'textnotes']) await setGroupSetting(page, groupB, key, 'enabled');
    const g = groupB;
    ids.categories = await created(page, g, { klass: 'Category', name: 'Telas' });
    ids.customers = await created(page, g, { klass: 'Customer', name: 'Joana Conceição' });
    ids.equipment = await created(page, g, { klass: 'Equipment', identifier: 'SN-42', maker: 'Samsung', customer_id: ids.customers });
    ids.tickets = await created(page, g, { klass: 'Ticket', content: 'Tela quebrada', customer_id: ids.customers, equipment_id: ids.equipment });
    ids.contracts = await created(page, g, { klass: 'Contract', description: 'Manutenção mensal', customer_id: ids.customers });
    ids.estimates = await created(page, g, {
      klass: 'Estimate',
      description: 'Troca de tela',
      customer_id: ids.customers,
      items: [{ description: 'Tela', quantity: 1, value: 45000 }],
    });
    ids.maintenances = await created(page, g, { klass: 'Maintenance', date: '2030-01-15', equipment_id: ids.equipment });
    ids.wallets = await created(page, g, { klass: 'Wallet', name: 'Caixa', currency: 'BRL' });
    const bank = await created(page, g, { klass: 'Wallet', name: 'Banco', currency: 'BRL' });
    const dollars = await created(page, g, { klass: 'Wallet', name: 'Dólares', currency: 'USD' });
    ids.incomes = await created(page, g, { klass: 'Income', description: 'Conserto', value: 15000, wallet_id: ids.wallets, posted_at: '2025-03-01' });
    ids.outgos = await created(page, g, { klass: 'Outgo', description: 'Peças', value: 5000, wallet_id: ids.wallets, posted_at: '2025-03-02' });
    ids.transfers = await created(page, g, { klass: 'Transfer', description: 'Depósito', value: 1000, source_wallet_id: ids.wallets, destination_wallet_id: bank });
    ids.exchanges = await created(page, g, {
      klass: 'Exchange',
      description: 'Câmbio',
      value_in: 1000,
      value_out: 5000,
      source_wallet_id: ids.wallets,
      destination_wallet_id: dollars,
    });
    ids.mappings = await created(page, g, {
      klass: 'Mapping',
      description: 'Energia',
      target: 'outgo',
      field_to_watch: 'description',
      kind_of_watch: 'contains',
      text_to_match: 'ENEL',
      kind_of_change: 'replace',
      field_to_change: 'categories',
      text_to_change: 'energia',
    });
    ids.handbooks = await created(page, g, { klass: 'Handbook', title: 'Troca de tela', content: 'Passo a passo.' });
    ids.reader_labels = await created(page, g, { klass: 'ReaderLabel', name: 'Notícias' });
    ids.comments = await created(page, g, { klass: 'Comment', content: 'Cliente avisado.', item_id: ids.tickets });
    ids.memberships = await firstId(page, g, { klass: 'Membership' });
    ids.adjustments = await firstId(page, g, { klass: 'Adjustment' });
    ids.accounts = g;
    ids.users = (await api(page, 'GET', '_session')).json.userCtx.name;
    // The reader's subscriptions are read from their feed on create: one
    // stored directly is enough for its screens.
    ids.reader_subscriptions = fake('rsb');
    // The last Group Ana chose on this device is B: a fresh tab starts there.
    await page.goto(`/account/${groupA}`);
    await tid(page, 'timeline').waitFor();
    await page.goto(`/account/${groupB}`);
    await tid(page, 'timeline').waitFor();
  }, 120_000);

  afterAll(async () => {
    await closeAll(server, [ana, dani], shots);
  }, 60_000);

  it('opens /ticket-board and /disk in a fresh tab in the Group last chosen on the device', async () => {
    for (const [name, path] of [
      ['tickets#board', '/ticket-board'],
      ['disk#index', '/disk'],
    ] as const) {
      const page = await ana.context.newPage();
      await page.goto(path);
      const o = await settle(page, name);
      expect(o.pathname, path).toBe(path);
      expect(o.selectGroup).toBe(0);
      expect(o.group).toBe(GROUP_B);
      shots.push(await shot(page, `routes-fresh-${name.replace('#', '-')}`));
      await page.close();
    }
  });

  it('opens every route of the table fresh and on reload', async () => {
    const failures: string[] = [];
    const todo = ROUTES.filter((def) => !LEAVES.has(def.name));
    // A few tabs at once: each waits mostly on the server and the chunks.
    const worker = async () => {
      for (let def = todo.shift(); def; def = todo.shift()) {
        const path = fill(def.path, ids, def.set);
        const [first, again] = await openFresh(ana.context, def.name, path, def.bare);
        for (const [when, o] of [
          ['fresh', first],
          ['reload', again],
        ] as const) {
          const wrong: string[] = [];
          if (o.route !== def.name) wrong.push(`screen ${o.route}`);
          if (o.pathname !== path.split('?')[0]) wrong.push(`moved to ${o.pathname}`);
          if (o.selectGroup > 0) wrong.push('"select a group profile"');
          if (o.routeError > 0) wrong.push('the route error page');
          if (o.text === 0) wrong.push('an empty page');
          if (def.access === 'account' && o.group !== GROUP_B) wrong.push(`Group "${o.group}"`);
          if (def.bare && o.navbars > 0) wrong.push('a navbar on a bare page');
          if (wrong.length) failures.push(`${def.name} ${path} (${when}): ${wrong.join(', ')}`);
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(failures.sort()).toEqual([]);
  }, 600_000);

  it('on a device that never chose a Group, opens a deep link in the only Group', async () => {
    const page = dani.page;
    await registerAndConfirm(page, server.dataDir, DANI);
    await api(page, 'POST', 'accounts', { name: 'Dani Celulares' });
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    const fresh = await dani.context.newPage();
    await fresh.goto('/ticket-board');
    const o = await settle(fresh, 'tickets#board');
    expect(o.pathname).toBe('/ticket-board');
    expect(o.group).toBe('Dani Celulares');
    await fresh.close();
  });

  it('with several Groups and none chosen on the device, the choice goes back to the address asked for', async () => {
    const page = ana.page;
    await page.evaluate(() => {
      localStorage.removeItem('oficina.lastGroup');
      sessionStorage.clear();
    });
    const fresh = await ana.context.newPage();
    await fresh.goto('/usage');
    await tid(fresh, 'select-group').waitFor();
    shots.push(await shot(fresh, 'routes-select-group-return'));
    await fresh.locator('[data-testid="group-card"] a', { hasText: 'Oficina Norte' }).click();
    const o = await settle(fresh, 'subscription#usage');
    expect(o.pathname).toBe('/usage');
    expect(o.group).toBe('Oficina Norte');
    await fresh.close();
  });
});
