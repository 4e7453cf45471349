// Issue 10 end to end in headless Chromium against the real Go server: a
// customer and a ticket → print the two-copy receipt (the PDF is fetched
// and its text read with pdftotext) → the status page from the ticket's
// link in a fresh browser without a session → an estimate with two lines
// made from the ticket → its approval link opened signed out, approved by
// name → the decision on the ticket → a contract with terms → the ticket
// done → a maintenance made from it, pre-filled → the maintenance plan.
// Screenshots go to test-results/docs-*.png.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, shotBoth, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.docs@oficina.test', name: 'Ana Docs', password: 'correct horse battery' };

let server: Server;
let shop: Browser;
let customer: Browser;
let group = '';
let ticketId = '';
let customerId = '';
let approvalUrl = '';
let statusUrl = '';
const shots: string[] = [];

/** pdfText fetches a PDF with the page's session and reads its text with poppler. */
async function pdfText(page: Page, href: string): Promise<string> {
  return (await pdfFile(page, href)).text;
}

/** pdfFile fetches a PDF with the page's session: its text (pdftotext) and its pdfinfo (pages, page size). */
async function pdfFile(page: Page, href: string): Promise<{ text: string; info: string }> {
  const res = await page.request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const dir = mkdtempSync(join(tmpdir(), 'oficina-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, await res.body());
    return { text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }), info: execFileSync('pdfinfo', [file], { encoding: 'utf8' }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pick(page: Page, name: string, text: string) {
  const input = tid(page, `picker-${name}`).locator('input');
  await input.click();
  await input.fill(text);
  await page.getByRole('option', { name: new RegExp(text) }).first().click();
}

describe('service documents in a real browser', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    shop = await openBrowser(server.baseURL);
    customer = await openBrowser(server.baseURL, 'pt-BR');
  }, 60_000);

  afterAll(async () => {
    await closeAll(server, [shop, customer], shots);
  }, 60_000);

  it('prints the two-copy receipt of a new ticket', async () => {
    const page = shop.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina São Jorge');
    // A Brazilian shop: its phones are read and shown as Brazilian numbers, its messages in Portuguese.
    const country = await api(page, 'POST', `${group}/_find`, { selector: { klass: 'Adjustment', key: 'country' } });
    const setBR = await api(page, 'PUT', `${group}/${country.json.docs[0]._id}`, { ...country.json.docs[0], value: 'BR' });
    expect(setBR.status, setBR.text).toBe(201);
    // The shop's contacts, which the customer's pages show.
    for (const [key, value] of [
      ['phones', [{ number: '(11) 3333-4444', description: 'Balcão', main: true }]],
      ['addresses', [{ street: 'Rua das Acácias', number: '12', city: 'São Paulo', state: 'SP', main: true }]],
    ] as const) {
      const r = await api(page, 'POST', group, { klass: 'Adjustment', key, label: key, value });
      expect(r.status, r.text).toBe(201);
    }
    const c = await api(page, 'POST', group, { klass: 'Customer', name: 'Joana Conceição', email: 'joana@example.com', phones: [{ number: '+55 11 98888-7777', main: true }] });
    customerId = c.json.id;
    const eq = await api(page, 'POST', group, { klass: 'Equipment', identifier: 'NB-42', maker: 'Lenovo', customer_id: customerId });
    const tk = await api(page, 'POST', group, { klass: 'Ticket', content: 'Não liga depois da queda', customer_id: customerId, equipment_id: eq.json.id, estimation: '2030-01-15' });
    expect(tk.status, tk.text).toBe(201);
    ticketId = tk.json.id;
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    await tid(page, 'ticket-documents').waitFor();
    const href = (await tid(page, 'print-receipt').getAttribute('href')) ?? '';
    expect(href).toContain('/receipt.pdf');
    const text = await pdfText(page, href);
    expect(text).toContain('Oficina São Jorge');
    expect(text.split('Service order nº 1').length - 1).toBe(2);
    expect(text).toContain('Joana Conceição');
    expect(text).toContain('Lenovo NB-42');
    expect(text).toContain('Não liga depois da queda');
    // Both copies: the shop's contact, its terms (the default: warranty and pickup) and two signature lines.
    for (const want of ['(11) 3333-4444', 'Rua das Acácias 12', 'Warranty: 90 days', 'Pickup:', 'Customer signature', 'Technician signature']) {
      expect(text.split(want).length - 1, want).toBe(2);
    }
    // WhatsApp carries the status link in the message.
    const wa = (await tid(page, 'send-status-link').getAttribute('href')) ?? '';
    expect(wa).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);
    expect(decodeURIComponent(wa)).toContain('/s/');
    shots.push(await shot(page, 'docs-ticket-light'));
  });

  it('prints the shop\'s own terms, set in Admin, on both copies', async () => {
    const page = shop.page;
    await page.goto(`/account/${group}/admin`);
    await tid(page, 'feature-receipt-terms').fill('Garantia de 30 dias. Retirada em até 60 dias.');
    await tid(page, 'save-receipt-terms').click();
    await expect.poll(async () => (await api(page, 'POST', `${group}/_find`, { selector: { klass: 'Adjustment', key: 'receipt-terms' } })).json.docs[0]?.value).toBe('Garantia de 30 dias. Retirada em até 60 dias.');
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    const text = await pdfText(page, (await tid(page, 'print-receipt').getAttribute('href')) ?? '');
    expect(text.split('Garantia de 30 dias.').length - 1).toBe(2);
    expect(text).not.toContain('Warranty: 90 days');
  });

  it('prints equipment labels from the ticket and from the equipment list (62 mm tape, A4 sheet)', async () => {
    const page = shop.page;
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    const tape = (await tid(page, 'ticket-documents').getByTestId('print-labels-62mm').getAttribute('href')) ?? '';
    const one = await pdfFile(page, tape);
    expect(one.text).toContain('NB-42');
    expect(one.text).toContain('Joana Conceição');
    expect(one.text).toContain('Service order nº 1');
    expect(one.info).toMatch(/Pages:\s+1\n/);
    expect(one.info).toMatch(/Page size:\s+175(\.\d+)? x 82(\.\d+)? pts/);

    const spare = await api(page, 'POST', group, { klass: 'Equipment', identifier: 'TV-900', maker: 'Samsung' });
    expect(spare.status, spare.text).toBe(201);
    await page.goto(`/account/${group}/equipment`);
    await tid(page, 'record-table').getByText('TV-900').waitFor();
    expect(await tid(page, 'selection-bar').count()).toBe(0);
    await tid(page, 'select-page').check();
    await tid(page, 'selection-bar').getByText('2 selected').waitFor();
    shots.push(await shot(page, 'docs-equipment-labels-light'));
    const sheet = await pdfFile(page, (await tid(page, 'selection-bar').getByTestId('print-labels-a4').getAttribute('href')) ?? '');
    expect(sheet.text).toContain('NB-42');
    expect(sheet.text).toContain('TV-900');
    expect(sheet.info).toMatch(/Page size:\s+595(\.\d+)? x 84[12](\.\d+)? pts \(A4\)/);
    const tapes = await pdfFile(page, (await tid(page, 'selection-bar').getByTestId('print-labels-62mm').getAttribute('href')) ?? '');
    expect(tapes.info).toMatch(/Pages:\s+2\n/);
    // Back on the ticket, where the next steps start.
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    await tid(page, 'ticket-documents').waitFor();
  });

  it('opens the status page from the ticket link without a session', async () => {
    const url = (await tid(shop.page, 'status-link-url').textContent()) ?? '';
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{28}$/);
    statusUrl = url;
    const page = customer.page;
    await page.goto(url);
    await tid(page, 'status-page').waitFor();
    await tid(page, 'shop-card').getByText('Oficina São Jorge').waitFor();
    await tid(page, 'shop-card').getByText('(11) 3333-4444').waitFor();
    await tid(page, 'shop-card').getByText('Rua das Acácias 12, São Paulo, SP').waitFor();
    // A customer's page: no app header or footer.
    expect(await page.locator('.navbar, .app-footer').count()).toBe(0);
    await tid(page, 'status-timeline').getByText('Aberto').waitFor();
    await tid(page, 'status-estimation').waitFor();
    // Nothing internal: no customer name on the public page.
    expect(await page.locator('main').textContent()).not.toContain('Joana');
    shots.push(...(await shotBoth(page, 'docs-status-page', () => tid(page, 'status-page').waitFor())));
  });

  it('makes an estimate with two lines from the ticket, with live totals', async () => {
    const page = shop.page;
    await tid(page, 'new-estimate').click();
    await tid(page, 'record-form').waitFor();
    // Pre-filled from the ticket.
    await tid(page, 'picker-customer_id').getByText('Joana Conceição').waitFor();
    // Checked under the fields before sending.
    await tid(page, 'save-estimate').click();
    await tid(page, 'record-form').getByText("can't be blank").first().waitFor();
    await page.locator('textarea[name=description]').fill('Troca da tela e revisão');
    const rows = tid(page, 'estimate-item');
    await rows.nth(0).locator('input[name="items.0.description"]').fill('Tela original');
    await rows.nth(0).locator('input[name="items.0.value"]').fill('980.50');
    await tid(page, 'add-item').click();
    await rows.nth(1).locator('input[name="items.1.description"]').fill('Mão de obra');
    await rows.nth(1).locator('input[name="items.1.quantity"]').fill('2');
    await rows.nth(1).locator('input[name="items.1.value"]').fill('127');
    // In the Group's currency (a Brazilian shop: reais), whatever the screen's language (issue 22 item 15).
    await tid(page, 'estimate-total').getByText('R$1,234.50').waitFor();
    shots.push(await shot(page, 'docs-estimate-form-light'));
    await tid(page, 'save-estimate').click();
    await page.waitForURL(/\/estimates\/est-/);
    await tid(page, 'estimate-lines').waitFor();
    await tid(page, 'estimate-total').getByText('R$1,234.50').waitFor();
    const pdf = await pdfText(page, (await tid(page, 'print-estimate').getAttribute('href')) ?? '');
    expect(pdf).toContain('Estimate nº 1');
    expect(pdf).toContain('R$ 1,234.50');
    // Sharing the approval link makes the draft sent: by WhatsApp, by e-mail or copied.
    const estimateId = page.url().split('/').pop() ?? '';
    expect((await api(page, 'GET', `${group}/${estimateId}`)).json.state).toBe('draft');
    const wa = (await tid(page, 'approval-link-whatsapp').getAttribute('href')) ?? '';
    expect(wa).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);
    expect(decodeURIComponent(wa)).toContain('/e/');
    const mail = (await tid(page, 'approval-link-email').getAttribute('href')) ?? '';
    expect(mail).toMatch(/^mailto:joana%40example\.com\?subject=/);
    // Written in the shop's language (Brazil: Portuguese), whatever the screen's.
    expect(decodeURIComponent(mail)).toContain('?subject=Orçamento nº 1 para sua aprovação&body=Olá Joana Conceição, segue o orçamento nº 1 para sua aprovação: ');
    await tid(page, 'approval-link-copy').click();
    await expect.poll(async () => (await api(page, 'GET', `${group}/${estimateId}`)).json.state).toBe('sent');
    await tid(page, 'detail-list').getByText('Sent').waitFor();
    shots.push(await shot(page, 'docs-estimate-show-light'));
  });

  it('lets the customer approve it by name on the approval page, signed out', async () => {
    const url = (await tid(shop.page, 'approval-link-url').textContent()) ?? '';
    expect(url).toMatch(/\/e\/[A-Za-z0-9_-]{28}$/);
    approvalUrl = url;
    const page = customer.page;
    await page.goto(url);
    await tid(page, 'estimate-page').waitFor();
    // What the customer reads: the shop and its contacts, and that it waits for them. No app header.
    await tid(page, 'public-state').getByText('Aguardando sua aprovação').waitFor();
    await tid(page, 'shop-card').getByText('Oficina São Jorge').waitFor();
    await tid(page, 'shop-card').getByText('(11) 3333-4444').waitFor();
    await tid(page, 'shop-card').getByText('Rua das Acácias 12, São Paulo, SP').waitFor();
    expect(await page.locator('.navbar, .app-footer').count()).toBe(0);
    expect(await page.getByText(/Entrar|Log in|Cadastr|Sign up/).count()).toBe(0);
    await tid(page, 'public-total').getByText('R$ 1.234,50').waitFor();
    // A name is needed; nothing is sent without it.
    await tid(page, 'approve-estimate').click();
    await tid(page, 'decision-form').getByText('não pode ficar em branco').waitFor();
    shots.push(await shot(page, 'docs-approval-page-light'));
    await page.locator('input[name=name]').fill('Joana Conceição');
    await page.locator('textarea[name=note]').fill('Pode fazer.');
    await tid(page, 'approve-estimate').click();
    await tid(page, 'estimate-decision').getByText(/Aprovado por Joana Conceição/).waitFor();
    await tid(page, 'public-state').getByText('Aprovado').waitFor();
    // Opening it again shows the decision, not the form.
    await page.reload();
    await tid(page, 'estimate-decision').waitFor();
    expect(await tid(page, 'decision-form').count()).toBe(0);
  });

  it('shows the decision on the estimate and the ticket', async () => {
    const page = shop.page;
    await page.reload();
    await tid(page, 'estimate-frozen').waitFor();
    expect(await tid(page, 'edit-record').count()).toBe(0);
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    await tid(page, 'comments-panel').getByText(/approved by Joana Conceição/).waitFor();
    await tid(page, 'ticket-estimates').getByText('Approved').waitFor();
  });

  it('makes a contract with two terms', async () => {
    const page = shop.page;
    await page.goto(`/account/${group}/contracts/new`);
    await tid(page, 'record-form').waitFor();
    await page.locator('textarea[name=description]').fill('Manutenção mensal');
    await pick(page, 'customer_id', 'Joana');
    await tid(page, 'add-term').click();
    await page.locator('textarea[name="items[0].content"]').fill('Uma visita por mês');
    await tid(page, 'add-term').click();
    await page.locator('textarea[name="items[1].content"]').fill('Peças à parte');
    shots.push(await shot(page, 'docs-contract-form-light'));
    await tid(page, 'save-contract').click();
    await page.waitForURL(/\/contracts\/cnt-/);
    await tid(page, 'contract-terms').getByText('Peças à parte').waitFor();
    await page.goto(`/account/${group}/contracts`);
    await tid(page, 'record-table').getByText('Manutenção mensal').waitFor();
  });

  it('closes the ticket, makes its maintenance pre-filled, and plans it', async () => {
    const page = shop.page;
    await page.goto(`/account/${group}/tickets/${ticketId}`);
    await tid(page, 'move-done').click();
    await tid(page, 'new-maintenance').click();
    await tid(page, 'record-form').waitFor();
    await tid(page, 'picker-equipment_id').getByText('NB-42').waitFor();
    await page.locator('input[name=warranty]').fill('90');
    await tid(page, 'warranty-preview').waitFor();
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await page.locator('input[name=next_maintenance]').fill(soon);
    await tid(page, 'save-maintenance').click();
    await page.waitForURL(/\/maintenances\/mai-/);
    expect((await tid(page, 'warranty-until').textContent())?.trim()).not.toBe('');
    await page.goto(`/account/${group}/maintenances/plan`);
    await tid(page, 'plan-table').getByText('Lenovo NB-42').waitFor();
    await tid(page, 'plan-table').getByText('Joana Conceição').waitFor();
    shots.push(...(await shotBoth(page, 'docs-plan', () => tid(page, 'plan-table').waitFor())));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await tid(page, 'plan-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    shots.push(await shot(page, 'docs-plan-390-light'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('gives the admin a calendar address with the maintenance on it', async () => {
    const page = shop.page;
    await page.goto(`/account/${group}/admin`);
    await tid(page, 'calendar-link').click();
    const url = ((await tid(page, 'calendar-url').textContent()) ?? '').trim();
    expect(url).toMatch(/\/api\/_public\/calendar\/[A-Za-z0-9_-]{28}\.ics$/);
    const res = await customer.page.request.get(url);
    expect(res.status()).toBe(200);
    const ics = await res.text();
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('Lenovo NB-42');
  });

  it('reads on a phone: the status and approval pages at 390 px', async () => {
    const page = customer.page;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [url, ready, name] of [
      [statusUrl, 'status-page', 'docs-status-390-light'],
      [approvalUrl, 'estimate-decision', 'docs-approval-390-light'],
    ] as const) {
      await page.goto(url);
      await tid(page, ready).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      shots.push(await shot(page, name));
    }
  });
});
