// The end-to-end harness: the real Go server on a temp data dir and a free
// loopback port, serving the built SPA, and headless Debian Chromium driven
// by playwright-core. It builds nothing: OFICINA_BIN names the server binary
// (go build -o bin/oficina ./functions/local) and web/dist must exist
// (npm run build).

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(WEB_DIR, '..');
export const DIST_DIR = join(WEB_DIR, 'dist');
export const RESULTS_DIR = join(WEB_DIR, 'test-results');
export const LANDING_SHOTS_DIR = join(WEB_DIR, 'public', 'screenshots');

export const CHROMIUM = process.env.OFICINA_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Containers often give /dev/shm only 64 MB; Chromium then crashes its
  // renderers. Shared memory goes to /tmp instead.
  '--disable-dev-shm-usage',
];

/** preflight fails loudly when something the run needs is missing: it never skips. */
export function preflight(): string {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); the e2e run never downloads a browser`);
  const bin = process.env.OFICINA_BIN ? resolve(REPO_DIR, process.env.OFICINA_BIN) : '';
  if (!bin) missing.push('OFICINA_BIN is not set: build the server with `go build -o bin/oficina ./functions/local` and set OFICINA_BIN=bin/oficina');
  else if (!existsSync(bin)) missing.push(`OFICINA_BIN=${bin} does not exist: run \`go build -o bin/oficina ./functions/local\` first`);
  if (!existsSync(join(DIST_DIR, 'index.html'))) missing.push(`${DIST_DIR}/index.html is missing: run \`npm run build\` in web/ first`);
  if (missing.length) throw new Error(`e2e preflight failed:\n  - ${missing.join('\n  - ')}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

export interface Server {
  baseURL: string;
  dataDir: string;
  proc: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * startServer runs the Go server on a free loopback port and waits until its API answers.
 * Scheduled jobs are off (--schedule=off): a test triggers what it needs. extraArgs are
 * more server flags (the reader's test lets the fetcher reach its loopback feed server).
 */
export async function startServer(bin: string, extraArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'oficina-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const log = createWriteStream(join(RESULTS_DIR, 'server.log'));
  const args = ['--addr', `127.0.0.1:${port}`, '--data', dataDir, '--web', DIST_DIR, '--log-level', 'warn', '--schedule', 'off', ...extraArgs];
  const proc = spawn(bin, args, {
    cwd: REPO_DIR,
    env: { ...process.env, OFICINA_BASE_URL: baseURL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.pipe(log);
  proc.stderr?.pipe(log);
  let exited: number | null = null;
  proc.once('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited !== null) throw new Error(`the server exited with ${exited} before answering; see ${join(RESULTS_DIR, 'server.log')}`);
    try {
      const res = await fetch(`${baseURL}/api/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer on ${baseURL} within 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (exited === null) {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
      if (exited === null) proc.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseURL, dataDir, proc, stop };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** watchCrash reports a renderer crash at once, so a failing step says why. */
function watchCrash(page: Page) {
  page.on('crash', () => console.error(`chromium: the page at ${page.url()} crashed`));
}

/** openBrowser starts headless Chromium with a fresh user-data-dir: one per user, so cookies never mix. */
export async function openBrowser(baseURL: string, locale = 'en-US'): Promise<Browser> {
  let profile = mkdtempSync(join(tmpdir(), 'oficina-chromium-'));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      baseURL,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      locale,
      timezoneId: 'UTC',
      serviceWorkers: 'block',
    });
  let context: BrowserContext;
  try {
    context = await launch();
  } catch (err) {
    // Chromium has been seen to die at launch on a loaded CI machine
    // (crashpad: "no stack mapping") before any step ran: try once more,
    // and say so.
    console.error(`chromium failed to launch, trying once more: ${err instanceof Error ? err.message : String(err)}`);
    rmSync(profile, { recursive: true, force: true });
    profile = mkdtempSync(join(tmpdir(), 'oficina-chromium-'));
    context = await launch();
  }
  context.on('page', watchCrash);
  context.pages().forEach(watchCrash);
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** decodeQuotedPrintable undoes soft line breaks and =XX escapes. */
export function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** emailsTo lists the outbox messages addressed to `to`, newest first, decoded. */
export function emailsTo(dataDir: string, to: string): string[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || (a < b ? 1 : -1))
    .map((f) => decodeQuotedPrintable(readFileSync(f, 'utf8')))
    .filter((text) => new RegExp(`^To:.*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text));
}

/** waitForLink polls the outbox for the newest email to `to` carrying a link whose path matches. */
export async function waitForLink(dataDir: string, to: string, pathPattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const text of emailsTo(dataDir, to)) {
      for (const m of text.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
        const url = m[0].replace(/[.,;)]+$/, '');
        if (pathPattern.test(new URL(url).pathname)) return url;
      }
    }
    if (Date.now() > deadline) throw new Error(`no email to ${to} with a link matching ${pathPattern} in ${join(dataDir, 'outbox')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** shot saves a PNG of the page into test-results/ (gitignored). */
export async function shot(page: Page, name: string, fullPage = true): Promise<string> {
  const file = join(RESULTS_DIR, `${name}.png`);
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, animations: 'disabled', fullPage });
  return file;
}

export const LANDING_SHOT_LIMIT = 150 * 1024;
/** The width of the landing page's small copies (its three columns are about 25rem wide). */
export const LANDING_THUMB_WIDTH = 640;

/** OFICINA_UPDATE_SCREENSHOTS=1 rewrites the committed landing screenshots in public/screenshots/. */
export const UPDATE_LANDING_SHOTS = process.env.OFICINA_UPDATE_SCREENSHOTS === '1';

/**
 * toWebp encodes an image (PNG or WebP bytes) as WebP with Chromium's own
 * canvas, `width` pixels wide (the same proportions), lowering the quality
 * until it is under `limit` bytes.
 */
async function toWebp(context: BrowserContext, data: Buffer, type: string, width: number | null, limit: number): Promise<Buffer> {
  const encoder = await context.newPage();
  try {
    await encoder.setContent('<canvas></canvas>');
    let buf = Buffer.alloc(0);
    for (const quality of [0.82, 0.7, 0.55, 0.4]) {
      const b64 = await encoder.evaluate(
        async ({ data, type, q, width }) => {
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          const bmp = await createImageBitmap(new Blob([bytes], { type }));
          const w = width ?? bmp.width;
          const canvas = document.querySelector('canvas')!;
          canvas.width = w;
          canvas.height = Math.round((bmp.height * w) / bmp.width);
          const ctx = canvas.getContext('2d')!;
          ctx.imageSmoothingQuality = 'high';
          ctx.drawImage(bmp, 0, 0, canvas.width, canvas.height);
          return canvas.toDataURL('image/webp', q).split(',')[1] ?? '';
        },
        { data: data.toString('base64'), type, q: quality, width },
      );
      buf = Buffer.from(b64, 'base64');
      if (buf.length < limit) break;
    }
    return buf;
  } finally {
    await encoder.close();
  }
}

/**
 * landingShot turns the current page into a WebP (under 150 KB) in
 * test-results/landing/, and into public/screenshots/ when that copy is
 * missing or OFICINA_UPDATE_SCREENSHOTS=1, with its small copy
 * (`<name>-640.webp`, made from the committed one) beside it; returns the
 * full image's size.
 */
export async function landingShot(page: Page, name: string): Promise<number> {
  const png = await page.screenshot({ animations: 'disabled' });
  const full = await toWebp(page.context(), png, 'image/png', null, LANDING_SHOT_LIMIT);
  const scratch = join(RESULTS_DIR, 'landing');
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, `${name}.webp`), full);
  // The committed copies change only when asked (or when one is missing),
  // so a routine run leaves the work tree clean.
  mkdirSync(LANDING_SHOTS_DIR, { recursive: true });
  const committed = join(LANDING_SHOTS_DIR, `${name}.webp`);
  if (UPDATE_LANDING_SHOTS || !existsSync(committed)) writeFileSync(committed, full);
  await landingThumb(page.context(), name);
  return full.length;
}

/** landingThumb writes public/screenshots/<name>-640.webp from <name>.webp when missing or asked to. */
export async function landingThumb(context: BrowserContext, name: string): Promise<void> {
  const thumb = join(LANDING_SHOTS_DIR, `${name}-${LANDING_THUMB_WIDTH}.webp`);
  if (!UPDATE_LANDING_SHOTS && existsSync(thumb)) return;
  writeFileSync(thumb, await toWebp(context, readFileSync(join(LANDING_SHOTS_DIR, `${name}.webp`)), 'image/webp', LANDING_THUMB_WIDTH, LANDING_SHOT_LIMIT / 4));
}

export const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

/** tick clicks the label of an Amplify checkbox or switch (the input itself is visually hidden) until it is `on` (ticked by default). */
export async function tick(input: Locator, on = true) {
  if ((await input.isChecked()) === on) return;
  const id = await input.getAttribute('id');
  const label = id ? input.page().locator(`label[for="${id}"]`) : input.locator('xpath=ancestor::label[1]');
  await ((await label.count()) > 0 ? label.first() : input.locator('xpath=ancestor::label[1]')).click();
}

/** registerAndConfirm signs a new user up through the screens and confirms the address from the outbox. */
export async function registerAndConfirm(page: Page, dataDir: string, who: { email: string; name: string; password: string }) {
  await page.goto('/user/register');
  await page.locator('input[name=email]').fill(who.email);
  await page.locator('input[name=fullname]').fill(who.name);
  await page.locator('input[name=password]').fill(who.password);
  await page.locator('input[name=password_confirmation]').fill(who.password);
  await tick(page.locator('input[name=accept_terms]'));
  await page.locator('form button[type=submit]').click();
  await tid(page, 'select-group').waitFor();
  await page.goto(await waitForLink(dataDir, who.email, /^\/user\/confirm\/[^/]+$/));
  await tid(page, 'confirmed').waitFor();
}

/** signUpWithGroup signs who up (registerAndConfirm) and makes a Group named `name` as them; it returns the Group's id. */
export async function signUpWithGroup(page: Page, dataDir: string, who: { email: string; name: string; password: string }, name: string): Promise<string> {
  await registerAndConfirm(page, dataDir, who);
  return newGroup(page, name);
}

/** newGroup makes a Group named `name` as the page's user and returns its id; anything but 201 fails the step. */
export async function newGroup(page: Page, name: string): Promise<string> {
  const g = await api(page, 'POST', 'accounts', { name });
  if (g.status !== 201) throw new Error(`making the Group "${name}" answered ${g.status}: ${g.text}`);
  return g.json.id;
}

/** closeAll closes the browsers, stops the server and says where the screenshots went: every suite's afterAll. */
export async function closeAll(server: Server | undefined, browsers: Array<Browser | undefined>, shots: string[] = []): Promise<void> {
  for (const b of browsers) await b?.close();
  await server?.stop();
  if (shots.length) console.log(`screenshots:\n  ${shots.join('\n  ')}`);
}

/** api calls the server from inside the page, with its session cookie and XSRF header, like the SPA. */
export async function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const xsrf = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
      const res = await fetch(`/api/${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      return { status: res.status, json, text };
    },
    { method, path, body },
  );
}

/** waitForSavedLocale polls the session until the server reports `locale` for the signed-in user. */
export async function waitForSavedLocale(page: Page, locale: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await api(page, 'GET', '_session');
    if (r.json?.userCtx?.locale === locale) return;
    if (Date.now() > deadline) throw new Error(`the session still reports locale ${JSON.stringify(r.json?.userCtx?.locale)}, not ${locale}`);
    await page.waitForTimeout(100);
  }
}

export async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => (t === 'dark' ? localStorage.setItem('oficina.theme', 'dark') : localStorage.removeItem('oficina.theme')), theme);
}

/** shotBoth screenshots the page in the light and the dark theme (reloading into each); returns the files. */
export async function shotBoth(page: Page, name: string, ready: () => Promise<unknown>): Promise<string[]> {
  const files: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await page.waitForFunction((m) => document.documentElement.dataset.colorMode === m, theme);
    await ready();
    files.push(await shot(page, `${name}-${theme}`));
  }
  await setTheme(page, 'light');
  return files;
}

export interface WireLoad {
  requests: number;
  /** Bytes of response bodies as received (after Content-Encoding), by kind. */
  js: number;
  css: number;
  total: number;
  /** Each response: kind, path, bytes on the wire, Content-Encoding. */
  rows: Array<{ kind: string; path: string; bytes: number; encoding: string }>;
}

/**
 * wireLoad opens `path` in a fresh Chromium profile (a new visitor: nothing
 * cached, signed out, the browser's language `locale`), waits until the network is idle and adds up what
 * came over the wire: each response body's encoded size as Chromium
 * received it (Playwright's request.sizes()), headers left out.
 */
export async function wireLoad(baseURL: string, path = '/', locale = 'en-US'): Promise<WireLoad> {
  const visitor = await openBrowser(baseURL, locale);
  try {
    const page = visitor.page;
    const seen: Array<Promise<WireLoad['rows'][number]>> = [];
    page.on('requestfinished', (req) => {
      seen.push(
        (async () => {
          const sizes = await req.sizes();
          const res = await req.response();
          const kind = req.resourceType();
          return { kind, path: new URL(req.url()).pathname, bytes: Math.max(0, sizes.responseBodySize), encoding: (await res?.headerValue('content-encoding')) ?? '' };
        })(),
      );
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    const rows = await Promise.all(seen);
    const sum = (kind?: string) => rows.filter((r) => !kind || r.kind === kind).reduce((n, r) => n + r.bytes, 0);
    return { requests: rows.length, js: sum('script'), css: sum('stylesheet'), total: sum(), rows };
  } finally {
    await visitor.close();
  }
}

/** formatWireLoad: one line of figures in KB (1,024 bytes). */
export function formatWireLoad(w: WireLoad): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return `JS ${kb(w.js)}, CSS ${kb(w.css)}, in all ${kb(w.total)} over ${w.requests} requests`;
}

/** setGroupSetting writes a Group's adjustment (a module's switch: organize3, exoreader…) as an admin would. */
export async function setGroupSetting(page: Page, group: string, key: string, value: string) {
  const found = await api(page, 'POST', `${group}/_find`, { selector: { klass: 'Adjustment', key }, limit: 1 });
  const adj = found.json?.docs?.[0];
  const r = adj
    ? await api(page, 'PUT', `${group}/${adj._id}?rev=${adj._rev}`, { ...adj, value })
    : await api(page, 'POST', group, { klass: 'Adjustment', key, label: key, value });
  if (r.status >= 300) throw new Error(`setting ${key}=${value}: ${r.status} ${r.text}`);
}
