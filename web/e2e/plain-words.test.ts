// Issue 22 item 9 in headless Chromium against the real Go server: the
// dashboard's timeline and a record's History speak in plain words, in
// English and in pt-BR — the labels each module declares on the seam, never
// a field's code ("changed payload", "item_id, item_type", "import_file",
// "attachment_key, dir_id, fullpath, stage", "link_targets, wanted,
// title_history", max_versions, the import settings' date_format…), the
// processes by name ("Wiki links", not "wiki"), one file uploaded five times
// as one card; and on a phone the dashboard opens on the open tickets and
// the balances. Screenshots go to test-results/plain-words-*.png.

import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, registerAndConfirm, setGroupSetting, shot, startServer, tid, waitForSavedLocale, type Browser, type Server } from './harness';

const ANA = { email: 'ana.words@oficina.test', name: 'Ana Palavras', password: 'correct horse battery' };
const BIA = { email: 'bia.words@oficina.test', name: 'Bia Técnica', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let bia: Browser;
let group = '';
let ticket = '';
let page2 = '';
let file = '';
const shots: string[] = [];

/** Field codes and module codes a person must never read on a change card. */
const CODES =
  /\b(payload|item_id|item_type|import_file|import_line|attachment_key|dir_id|fullpath|stage|link_targets|wanted|title_history|linked_by|max_versions|date_format|first_line_is_header|ignore_line_one|most_items_are|columns|headers|status_at|status_token|bytes|versions|exoreader|_wiki|_reader|_drive|CloudFile|TicketChecklist|Handbook)\b/;
/** The same in pt-BR, plus the English leftovers seen there. */
const CODES_PT = new RegExp(`${CODES.source}|\\bBookmark\\b|\\bpor wiki\\b|\\bby\\b|\\bchanged\\b`);

async function ok(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  const r = await api(page, method, path, body);
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.json;
}

/** importCsv sends a bank statement to the import route as the SPA does (the body is the file). */
async function importCsv(page: Page, wallet: string, csv: string, options: string) {
  const r = await page.evaluate(
    async ({ url, csv }) => {
      const xsrf = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/csv', 'X-XSRF-TOKEN': decodeURIComponent(xsrf) }, body: csv });
      return { status: res.status, text: await res.text() };
    },
    { url: `/api/${group}/_finance/import?wallet_id=${wallet}&${options}`, csv },
  );
  expect(r.status, r.text).toBe(200);
}

/** cardTexts opens the dashboard and reads its change cards once the words are loaded. */
async function cardTexts(page: Page): Promise<string[]> {
  await page.goto(`/account/${group}`);
  await tid(page, 'timeline').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="loading-spinner"]')?.getAttribute('data-busy') === 'false');
  return page.locator('[data-testid="change-card"]').allTextContents();
}

async function historyTexts(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await tid(page, 'history-list').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="loading-spinner"]')?.getAttribute('data-busy') === 'false');
  return page.locator('[data-testid="history-entry"]').allTextContents();
}

function noCodes(texts: string[], codes: RegExp) {
  const leaks = texts.filter((t) => codes.test(t));
  expect(leaks, `cards naming codes:\n${leaks.join('\n')}`).toEqual([]);
}

describe('the timeline and History in plain words', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
    const page = ana.page;
    await registerAndConfirm(page, server.dataDir, ANA);
    group = (await ok(page, 'POST', 'accounts', { name: 'Oficina Palavras' })).id;
    for (const key of ['checklist', 'textnotes', 'organize3']) await setGroupSetting(page, group, key, 'enabled');
    // Bia, the technician, changes what Ana made: her changes are cards of
    // their own (one author's run never swallows another's).
    bia = await openBrowser(server.baseURL);
    await registerAndConfirm(bia.page, server.dataDir, BIA);
    await ok(page, 'POST', group, { klass: 'Membership', email: BIA.email, editor: false, report_view: false });
    await bia.page.goto('/invite');
    await tid(bia.page, 'accept-invite').click();
    await bia.page.waitForURL(`**/account/${group}`);
  }, 120_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && ana) shots.push(await shot(ana.page, 'plain-words-failed'));
  });

  afterAll(async () => {
    await closeAll(server, [ana, bia], shots);
  }, 60_000);

  it("names a ticket's checklist, comments and status in words", async () => {
    const page = ana.page;
    const category = (await ok(page, 'POST', group, { klass: 'Category', name: 'Telas', checklist: 'Trocar tela\nTestar toque' })).id;
    const customer = (await ok(page, 'POST', group, { klass: 'Customer', name: 'Joana' })).id;
    ticket = (await ok(page, 'POST', group, { klass: 'Ticket', content: 'Tela quebrada', category_id: category, customer_id: customer })).id;
    await expect
      .poll(async () => (await api(page, 'POST', `${group}/_find`, { selector: { klass: 'TicketChecklist', ticket } })).json.docs.length)
      .toBe(1);
    const list = (await api(page, 'POST', `${group}/_find`, { selector: { klass: 'TicketChecklist', ticket } })).json.docs[0];
    const b = bia.page;
    await ok(b, 'PUT', `${group}/_design/checklist/_update/toggle/${list._id}`, { index: 0, text: 'Trocar tela', done: true });
    await ok(b, 'POST', group, { klass: 'Comment', content: 'Cliente avisado.', item_id: ticket });
    const t = await ok(b, 'GET', `${group}/${ticket}`);
    await ok(b, 'PUT', `${group}/${ticket}?rev=${t._rev}`, { ...t, status: 'doing', priority: 'high' });

    const cards = await cardTexts(page);
    noCodes(cards, CODES);
    expect(cards.join('\n')).toMatch(/Checklist.*by Bia Técnica · changed Items/);
    expect(cards.join('\n')).toMatch(/Comment.*by Bia Técnica/);
    const history = await historyTexts(page, `/account/${group}/tickets/${ticket}`);
    noCodes(history, CODES);
    expect(history.join('\n')).toMatch(/changed (Status, Priority|Priority, Status)/);
    shots.push(await shot(page, 'plain-words-ticket-history'));
  });

  it('names the import settings and imported money in words', async () => {
    const page = ana.page;
    const wallet = (await ok(page, 'POST', group, { klass: 'Wallet', name: 'Banco', currency: 'BRL' })).id;
    const csv = 'Data;Histórico;Valor\n02/03/2026;PIX RECEBIDO;1.500,00\n15/03/2026;POSTO;-230,45\n';
    await importCsv(page, wallet, csv, 'first_line_is_header=true');
    // The same statement read with other settings rewrites the saved ones.
    await importCsv(bia.page, wallet, 'x;y;z\n' + csv, 'skip=1&first_line_is_header=true&most_items_are=outgo');
    const cards = await cardTexts(page);
    noCodes(cards, CODES);
    expect(cards.join('\n')).toMatch(/Import settings.*by Bia Técnica · changed/);
  });

  it('names the wiki pages and its link keeper in words', async () => {
    const page = ana.page;
    page2 = (await ok(page, 'POST', group, { klass: 'Handbook', title: 'Bateria', content: 'Como trocar.' })).id;
    await ok(page, 'POST', group, { klass: 'Handbook', title: 'Troca de tela', content: 'Antes, veja [[Bateria]] e [[Conector]].' });
    const p = await ok(bia.page, 'GET', `${group}/${page2}`);
    await ok(bia.page, 'PUT', `${group}/${page2}?rev=${p._rev}`, { ...p, title: 'Bateria do celular' });
    await ok(page, 'POST', group, { klass: 'Bookmark', url: 'https://example.com/manual.pdf', title: 'Manual do fabricante' });
    const cards = await cardTexts(page);
    noCodes(cards, CODES);
    const history = await historyTexts(page, `/account/${group}/handbooks/${page2}`);
    noCodes(history, CODES);
    expect(history.join('\n')).toMatch(/changed Title/);
    // Item 13: "Updated … · <author>", never "[object Object]"; the same in the wiki's recent changes.
    const main = (await page.locator('main#main').textContent()) ?? '';
    expect(main).not.toContain('[object Object]');
    expect(main).toMatch(/Updated .* · Bia Técnica/);
    await page.goto('/wiki');
    await tid(page, 'wiki-recent-changed').getByText('Bia Técnica').waitFor();
    expect(await tid(page, 'wiki-recent-changed').textContent()).not.toContain('[object Object]');
  });

  it('shows one file uploaded five times as one card, its settings in words', async () => {
    const page = ana.page;
    await page.goto('/disk');
    await tid(page, 'disk-upload-input').waitFor({ state: 'attached' });
    for (let n = 1; n <= 5; n++) {
      await tid(page, 'disk-upload-input').setInputFiles({ name: 'laudo.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(1000 + n, n) });
      await tid(page, 'upload-queue').locator('[data-testid="upload-item-laudo.pdf"]').last().and(page.locator('[data-stage="done"]')).waitFor();
    }
    const root = await ok(page, 'GET', `${group}/_drive/dirs/root`);
    file = root.entries.find((e: { name: string }) => e.name === 'laudo.pdf')._id;
    let cards = await cardTexts(page);
    noCodes(cards, CODES);
    const fileCards = page.locator('[data-testid="change-card"]', { hasText: 'laudo.pdf' });
    expect(await fileCards.count()).toBe(1);
    expect(Number(await fileCards.getAttribute('data-count'))).toBeGreaterThanOrEqual(5);
    const f = await ok(bia.page, 'GET', `${group}/${file}`);
    await ok(bia.page, 'PUT', `${group}/${file}?rev=${f._rev}`, { ...f, max_versions: 5 });
    cards = await cardTexts(page);
    noCodes(cards, CODES);
    expect(cards.join('\n')).toMatch(/laudo\.pdf.*by Bia Técnica · changed Versions kept/);
    expect(cards.join('\n')).toMatch(/laudo\.pdf.*by Ana Palavras · \d+ changes/);
    shots.push(await shot(page, 'plain-words-dashboard-1280-light'));
  });

  it('speaks pt-BR: no English badge, no field codes, processes by name', async () => {
    const page = ana.page;
    await tid(page, 'user-menu').click();
    await tid(page, 'locale-pt-BR').click();
    await page.waitForFunction(() => document.documentElement.lang === 'pt-BR');
    await waitForSavedLocale(page, 'pt-BR');
    const cards = await cardTexts(page);
    noCodes(cards, CODES_PT);
    expect(cards.join('\n')).toMatch(/Arquivo/);
    expect(cards.join('\n')).toMatch(/mudou Versões guardadas/);
    for (const path of [`/account/${group}/handbooks/${page2}`, `/account/${group}/tickets/${ticket}`, `/account/${group}/cloud_files/${file}`]) {
      noCodes(await historyTexts(page, path), CODES_PT);
    }
    // What the wiki keeps about links is its own: a card says who, never "wiki".
    const wikiHistory = await historyTexts(page, `/account/${group}/handbooks/${page2}`);
    expect(wikiHistory.join('\n')).not.toMatch(/por wiki/);
    shots.push(await shot(page, 'plain-words-history-pt-BR'));
    await tid(page, 'user-menu').click();
    await tid(page, 'locale-en').click();
    await waitForSavedLocale(page, 'en');
  });

  it('declares every field that a real change above touched', async () => {
    const page = ana.page;
    const words = await ok(page, 'GET', '_labels');
    const changes = (await api(page, 'POST', `${group}/_find`, { selector: { klass: 'DocumentChange' }, limit: 1000 })).json.docs as Array<{
      item_type: string;
      changed?: string[];
    }>;
    expect(changes.length).toBeGreaterThan(20);
    const undeclared = new Set<string>();
    for (const c of changes) {
      const k = words.klasses[c.item_type];
      if (!k) {
        undeclared.add(c.item_type);
        continue;
      }
      for (const f of c.changed ?? []) if (!k.fields[f] && !k.internal.includes(f)) undeclared.add(`${c.item_type}.${f}`);
    }
    expect([...undeclared].sort()).toEqual([]);
  });

  it('opens the dashboard on a phone with the open tickets and the balances first', async () => {
    const page = ana.page;
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/account/${group}`);
      await tid(page, 'timeline').waitFor();
      await tid(page, 'open-tickets-card').waitFor();
      const side = (await tid(page, 'dashboard-side').boundingBox())!;
      const timeline = (await tid(page, 'timeline').boundingBox())!;
      if (width === 390) expect(side.y + side.height).toBeLessThanOrEqual(timeline.y);
      else expect(side.x).toBeGreaterThanOrEqual(timeline.x + timeline.width);
      shots.push(await shot(page, `plain-words-dashboard-${width}-light`));
    }
  });
});
