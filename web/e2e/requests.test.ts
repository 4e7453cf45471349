// Issue 21's requests per user action, in headless Chromium against the real
// Go server: a shop's everyday steps (a page load of the dashboard, the
// board, the tickets list; a ticket opened from the list; a comment on it;
// a new customer saved; screens seen again), each counted as the API requests the SPA made for
// it until the network was quiet (a batch of reads, lib/batch.ts, is one
// request; the reads it carries are listed), with the live-updates notices
// the tab heard meanwhile. Printed, never pass/fail (the cost model prices
// requests: docs/operating.md#costs); the walk itself must succeed.

import type { Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, registerAndConfirm, RESULTS_DIR, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

let server: Server;
let b: Browser;
let coworker: Browser;

describe('requests per user action', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    b = await openBrowser(server.baseURL);
    coworker = await openBrowser(server.baseURL);
  }, 60_000);
  afterAll(async () => {
    await closeAll(server, [b, coworker]);
  }, 60_000);

  it('counts', async () => {
    const page: Page = b.page;
    const group = await signUpWithGroup(page, server.dataDir, { email: 'rita.count@oficina.test', name: 'Rita Count', password: 'correct horse battery' }, 'Rita Repairs');
    const docs = Array.from({ length: 30 }, (_, i) => ({ klass: 'Ticket', title: `Phone ${i}`, content: `Screen ${i}`, priority: 'medium' }));
    expect((await api(page, 'POST', `${group}/_bulk_docs`, { docs })).status).toBe(201);
    // A coworker in the Group, whose open ticket page hears the comment.
    const inv = await api(page, 'POST', group, { klass: 'Membership', email: 'caio.count@oficina.test', editor: false });
    expect(inv.status, inv.text).toBe(201);
    await registerAndConfirm(coworker.page, server.dataDir, { email: 'caio.count@oficina.test', name: 'Caio Count', password: 'correct horse battery' });
    expect((await api(coworker.page, 'PUT', `${group}/_design/status/_update/accept/${inv.json.id as string}`, {})).status).toBe(200);
    const theirs: string[] = [];
    const log: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (!u.pathname.startsWith('/api/')) return;
      let what = u.pathname.endsWith('/_find') ? ` ${(r.postData() ?? '').slice(0, 160)}` : '';
      if (u.pathname === '/api/_batch') {
        // The reads a batch carries (lib/batch.ts): one request, each read served by its own route.
        const { requests } = JSON.parse(r.postData() ?? '{}') as { requests: { method: string; path: string }[] };
        what = ` [${requests.map((q) => `${q.method} ${q.path.replace(group, 'G')}`).join('; ')}]`;
      }
      log.push(`${r.method()} ${u.pathname.replace(group, 'G')}${u.search}${what}`);
    });
    const notices: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => String(f.payload).includes('"klass"') && notices.push(String(f.payload))));
    const rows: Array<{ step: string; requests: string[]; notices: number }> = [];
    const step = async (name: string, act: () => Promise<void>) => {
      log.length = 0;
      notices.length = 0;
      await act();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(600);
      rows.push({ step: name, requests: [...log], notices: notices.length });
    };
    await step('a page load of the dashboard', async () => {
      await page.goto(`/account/${group}`);
      await tid(page, 'timeline').waitFor();
    });
    await step('a page load of the board', async () => {
      await page.goto('/ticket-board');
      await tid(page, 'column-open').waitFor();
    });
    await step('a page load of the tickets list', async () => {
      await page.goto(`/account/${group}/tickets`);
      await page.locator('a[href*="/tickets/tik-"]').first().waitFor();
    });
    let ticket = '';
    const toList = async () => {
      await tid(page, 'nav-tickets').click();
      await page.locator('a[href*="/tickets/tik-"]').first().waitFor();
    };
    const reopenFirst = async () => {
      await page.locator(`a[href$="/${ticket}"]`).first().click();
      await page.waitForURL((u) => u.pathname.endsWith(ticket));
      await tid(page, 'comments-panel').getByText('Screen ordered.').waitFor();
    };
    await step('a ticket opened from the list', async () => {
      await page.locator('a[href*="/tickets/tik-"]').first().click();
      await page.waitForURL(/\/tickets\/tik-/);
      ticket = page.url().split('/').pop() ?? '';
      await tid(page, 'comments-panel').waitFor();
    });
    await coworker.page.goto(page.url());
    await tid(coworker.page, 'comments-panel').waitFor();
    await coworker.page.waitForFunction(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute('data-status') === 'live');
    await coworker.page.waitForLoadState('networkidle');
    coworker.page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) theirs.push(`${r.method()} ${u.pathname.replace(group, 'G')}`);
    });
    await step('a comment on it', async () => {
      await page.locator('textarea[name=content]').last().fill('Screen ordered.');
      await tid(page, 'comments-panel').getByRole('button', { name: /comment/i }).click();
      await tid(page, 'comments-panel').getByText('Screen ordered.').waitFor();
      await tid(coworker.page, 'comments-panel').getByText('Screen ordered.').waitFor();
      await coworker.page.waitForLoadState('networkidle');
    });
    rows.push({ step: "the comment, in a coworker's tab open on the ticket", requests: [...theirs], notices: 1 });
    await step('the ticket moved on (open → doing)', async () => {
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/${ticket}`)),
        tid(page, 'status-actions').getByRole('button', { name: 'Start' }).click(),
      ]);
    });
    await step('the tickets list, from the navbar', toList);
    await step('the board, from the tickets list', async () => {
      await tid(page, 'open-board').click();
      await tid(page, 'column-open').waitFor();
    });
    await toList();
    await page.waitForLoadState('networkidle');
    // Screens seen before in this page: what the live notices kept true costs nothing again.
    await step('another ticket opened from the list', async () => {
      await page.locator(`a[href*="/tickets/tik-"]:not([href$="/${ticket}"])`).first().click();
      await page.waitForURL((u) => /\/tickets\/tik-/.test(u.pathname) && !u.pathname.endsWith(ticket));
      await tid(page, 'comments-panel').waitFor();
    });
    await step('the tickets list again, from the navbar', toList);
    await step('the first ticket opened again', reopenFirst);
    // Past the client's usual 30 s of freshness: what the notices keep true is still not read again.
    await page.waitForTimeout(31_000);
    await step('the tickets list, from the navbar, 31 s later', toList);
    await step('the first ticket opened again, 31 s later', reopenFirst);
    await toList();
    await page.waitForLoadState('networkidle');
    await step('a new ticket saved from its form', async () => {
      await tid(page, 'new-record').click();
      await page.locator('textarea[name=content]').fill('Battery drains overnight');
      await tid(page, 'save-ticket').click();
      await page.waitForURL(/\/tickets\/tik-/);
    });
    await page.goto(`/account/${group}/customers/new`);
    await page.waitForLoadState('networkidle');
    await step('a new customer saved (from its form)', async () => {
      await page.locator('input[name=name]').fill('Maria Souza');
      await page.locator('[data-testid="record-form"] button[type=submit]').click();
      await page.waitForURL(/\/customers\/cus-/);
    });
    await step('the customer edited', async () => {
      await tid(page, 'edit-record').click();
      await page.locator('input[name=name]').fill('Maria Souza Lima');
      await page.locator('[data-testid="record-form"] button[type=submit]').click();
      await page.getByText('Maria Souza Lima').first().waitFor();
    });
    // A shop's tickets mostly name a customer, whose card (and the documents panel's WhatsApp
    // link) needs the customer: a customer no screen of this page has read yet, which the list's
    // link to it then reads (the ticket screen starts from that copy).
    const other = await api(page, 'POST', group, { klass: 'Customer', name: 'João Pereira' });
    expect(other.status, other.text).toBe(201);
    const named = await api(page, 'POST', group, { klass: 'Ticket', content: 'Hinge loose', priority: 'low', customer_id: other.json.id as string });
    expect(named.status, named.text).toBe(201);
    await toList();
    await page.locator(`a[href$="/${named.json.id as string}"]`).first().waitFor();
    await page.waitForLoadState('networkidle');
    await step('a ticket naming a customer opened from the list (whose link read the customer)', async () => {
      await page.locator(`a[href$="/${named.json.id as string}"]`).first().click();
      await tid(page, 'customer-card').waitFor();
    });
    expect(ticket).toMatch(/^tik-/);
    const reads = (requests: string[]) => requests.reduce((n, q) => n + (q.startsWith('POST /api/_batch') ? q.split('; ').length : 1), 0);
    writeFileSync(join(RESULTS_DIR, 'requests.json'), JSON.stringify(rows, null, 2));
    console.log(
      `API requests per user action (Chromium on loopback against the real server; test-results/requests.json lists them):\n  ${rows
        .map((r) => `${r.step}: ${r.requests.length} requests (${reads(r.requests)} reads), ${r.notices} live notice${r.notices === 1 ? '' : 's'}`)
        .join('\n  ')}`,
    );
  }, 180_000);
});
