// Issue 22 item 11 in headless Chromium against the real Go server: forms
// say what is wrong under the field at fault, not in a "Your request
// failed" banner — a blank sign-up flags every empty field, a website that
// is not a web address is refused before sending (and by the server when
// a client skips the check), and a rule only the server knows (an address
// invited twice) lands under its field too. At 1280 and 390 px; screenshots
// go to test-results/forms-*.png.

import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.forms@oficina.test', name: 'Ana Formulários', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let group = '';
const shots: string[] = [];
const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

/** underField reads the error message Amplify shows under the control named `name`. */
async function underField(page: Page, name: string): Promise<string> {
  const field = page.locator(`.amplify-field:has([name="${name}"])`).last();
  return ((await field.locator('.amplify-field__error-message').allTextContents()) ?? []).join(' ');
}

async function customers(page: Page): Promise<number> {
  const r = await api(page, 'POST', `${group}/_find`, { selector: { klass: 'Customer' }, limit: 100 });
  return r.json.docs.length;
}

describe('forms speak per field', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
  }, 60_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && ana) shots.push(await shot(ana.page, 'forms-failed'));
  });

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('flags every empty field of a blank sign-up, under each field, with no banner', async () => {
    const page = ana.page;
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.goto('/user/register');
      await page.locator('form button[type=submit]').click();
      await page.locator('input[name=email][aria-invalid=true]').waitFor();
      expect(await underField(page, 'email')).toBe("can't be blank");
      expect(await underField(page, 'password')).toBe("can't be blank");
      expect(await underField(page, 'password_confirmation')).toBe("can't be blank");
      expect(await underField(page, 'accept_terms')).toBe('must be accepted');
      expect(await underField(page, 'fullname')).toBe('');
      expect(await tid(page, 'error-alert').count()).toBe(0);
      expect(await page.getByText('Your request failed').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
      shots.push(await shot(page, `forms-register-blank-${width}`));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('refuses a website that is not a web address under its field, and so does the server', async () => {
    const page = ana.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Formulários');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.goto(`/account/${group}/customers/new`);
      await page.locator('input[name=name]').fill('Zé das Peças');
      await page.locator('input[name=site]').fill('not a url');
      await page.locator('form button[type=submit]').click();
      await page.locator('input[name=site][aria-invalid=true]').waitFor();
      expect(await underField(page, 'site')).toBe('must be a web address, like https://example.com');
      expect(await tid(page, 'error-alert').count()).toBe(0);
      expect(page.url()).toMatch(/\/customers\/new$/);
      expect(await customers(page)).toBe(0);
      shots.push(await shot(page, `forms-customer-site-${width}`));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // A client that skips the check meets the server's.
    const direct = await api(page, 'POST', group, { klass: 'Customer', name: 'Zé', site: 'not a url' });
    expect(direct.status).toBe(422);
    expect(direct.json.fields).toEqual({ site: ['is invalid'] });
    expect(await customers(page)).toBe(0);
    await page.locator('input[name=site]').fill('https://zedaspecas.com.br');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(/\/customers\/cus-[0-9a-f]{32}$/);
    expect(await customers(page)).toBe(1);
  });

  it("puts a rule only the server knows under its field: an address invited twice", async () => {
    const page = ana.page;
    const first = await api(page, 'POST', group, { klass: 'Membership', email: 'bia.forms@oficina.test', editor: false });
    expect(first.status, first.text).toBe(201);
    await page.goto(`/account/${group}/memberships/new`);
    await page.locator('input[name=email]').fill('bia.forms@oficina.test');
    await page.locator('form button[type=submit]').click();
    await page.locator('input[name=email][aria-invalid=true]').waitFor();
    expect(await underField(page, 'email')).toBe('has already been taken');
    expect(await tid(page, 'error-alert').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    shots.push(await shot(page, 'forms-invite-taken-1280'));
  });
});
