// Issue 13 §3 in headless Chromium: the drive on S3. The real server runs
// with --blobs=s3 against Versity's S3 gateway (bin/versitygw, built by
// `make deps`, started here on loopback with a versioned bucket whose CORS
// rule lets the site PUT and read the ETag, as the stack's bucket does). A
// file uploaded by the screen's button goes straight to the bucket in
// presigned parts (no chunk reaches the server), is committed, and its
// download is a presigned GET that S3 answers with the original name. An
// upload past the Group's room is refused at its start, the reason shown in
// the queue, nothing written.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, freePort, openBrowser, preflight, REPO_DIR, shot, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.s3@oficina.test', name: 'Ana Nuvem', password: 'correct horse battery' };
const ACCESS = 'oficina-e2e';
const SECRET = 'oficina-e2e-secret';
const REGION = 'us-east-1';
const BUCKET = 'oficina-drive-e2e';

let gw: ChildProcess | undefined;
let gwDir = '';
let endpoint = '';
let server: Server;
let ana: Browser;
let group = '';
const shots: string[] = [];

const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const hmac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();

/** s3 sends one SigV4-signed request to the gateway (enough for the bucket's setup). */
async function s3(method: string, path: string, body = ''): Promise<Response> {
  const url = new URL(endpoint + path);
  const amzDate = new Date().toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': sha256(body),
    'x-amz-date': amzDate,
  };
  if (body) headers['content-md5'] = createHash('md5').update(body).digest('base64');
  const names = Object.keys(headers).sort();
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort()
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [method, url.pathname, query, names.map((n) => `${n}:${headers[n]}\n`).join(''), names.join(';'), headers['x-amz-content-sha256']].join('\n');
  const scope = `${day}/${REGION}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day), REGION), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const { host: _host, ...sent } = headers;
  sent.authorization = `AWS4-HMAC-SHA256 Credential=${ACCESS}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
  return fetch(url, { method, headers: sent, body: body || undefined });
}

async function expectOK(res: Promise<Response>, what: string) {
  const r = await res;
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
}

async function startGateway(): Promise<void> {
  const bin = process.env.OFICINA_VERSITYGW || join(REPO_DIR, 'bin', 'versitygw');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make deps\` (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)`);
  gwDir = mkdtempSync(join(tmpdir(), 'oficina-e2e-s3-'));
  for (const d of ['root', 'versions', 'meta']) mkdirSync(join(gwDir, d));
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { ROOT_ACCESS_KEY: ACCESS, ROOT_SECRET_KEY: SECRET };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(AWS_|VGW_|ROOT_)/.test(k)) env[k] = v;
  gw = spawn(bin, ['--port', `127.0.0.1:${port}`, '--quiet', 'posix', '--versioning-dir', join(gwDir, 'versions'), '--sidecar', join(gwDir, 'meta'), join(gwDir, 'root')], {
    cwd: gwDir,
    env,
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`versitygw did not answer on ${endpoint}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await expectOK(s3('PUT', `/${BUCKET}`), 'create the bucket');
  await expectOK(
    s3('PUT', `/${BUCKET}?versioning=`, '<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>'),
    'enable versioning',
  );
}

describe('the drive on S3 in a real browser', () => {
  beforeAll(async () => {
    const bin = preflight();
    await startGateway();
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: ACCESS, AWS_SECRET_ACCESS_KEY: SECRET, AWS_REGION: REGION });
    // A free Group gets 9.5 MB here: room for the big file, not for one more.
    server = await startServer(bin, ['--blobs', 's3', '--bucket', BUCKET, '--s3-endpoint', endpoint, '--drive-free-limit', '9500000']);
    // The stack's bucket lets the site's origin PUT parts and read their ETag.
    await expectOK(
      s3(
        'PUT',
        `/${BUCKET}?cors=`,
        `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><CORSRule><AllowedOrigin>${server.baseURL}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>`,
      ),
      'the bucket CORS rule',
    );
    ana = await openBrowser(server.baseURL);
  }, 90_000);

  afterAll(async () => {
    await closeAll(server, [ana], shots);
    gw?.kill('SIGTERM');
    if (gwDir) rmSync(gwDir, { recursive: true, force: true });
  }, 60_000);

  it('uploads by the button straight to S3 in presigned parts, then downloads by a presigned GET with the name', async () => {
    const page = ana.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Nuvem');
    await page.goto(`/account/${group}`);
    await page.waitForFunction((id) => (sessionStorage.getItem('oficina.activeDb') ?? '').includes(id), group);
    await page.goto('/disk');
    await tid(page, 'disk-empty').waitFor();

    const toS3: string[] = [];
    const toServer: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(endpoint)) toS3.push(`${r.method()} ${new URL(r.url()).searchParams.get('partNumber') ?? ''}`);
      if (r.url().includes('/_drive/uploads')) toServer.push(`${r.method()} ${new URL(r.url()).pathname.split('/_drive/')[1]}`);
    });
    // Two parts: 8 MiB and the rest.
    const size = 8 * 1024 * 1024 + 300_000;
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 256;
    const name = 'planta baixa – obra.pdf';
    await tid(page, 'disk-upload-input').setInputFiles({ name, mimeType: 'application/pdf', buffer: bytes }, { timeout: 60_000 });
    const item = tid(page, `upload-item-${name}`);
    await item.and(page.locator('[data-stage="done"]')).waitFor({ timeout: 60_000 });
    shots.push(await shot(page, 'drive-s3-uploaded'));
    expect(toS3.filter((r) => r.startsWith('PUT ')).sort()).toEqual(['PUT 1', 'PUT 2']);
    expect(toServer.some((r) => r.includes('?offset') || /^PUT /.test(r))).toBe(false);
    expect(toServer.filter((r) => r.endsWith('/parts')).length).toBeGreaterThan(0);

    const row = page.locator('[data-row]', { has: page.getByText(name, { exact: true }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('8.7 MB');
    const id = ((await row.getAttribute('data-testid')) ?? '').replace(/^disk-row-/, '');
    const doc = (await api(page, 'GET', `${group}/${id}`)).json;
    expect(doc.versions[0].sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

    // The panel's download link: the server answers 302 to S3, which names the file.
    await row.click();
    await tid(page, 'entry-panel').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), tid(page, 'entry-download').click()]);
    expect(download.url().startsWith(endpoint)).toBe(true);
    expect(download.suggestedFilename()).toBe(name);
    expect(readFileSync((await download.path())!).equals(bytes)).toBe(true);
  });

  it("refuses an upload past the Group's room before a byte goes up, saying why in the queue", async () => {
    const page = ana.page;
    await page.goto('/disk');
    const before = (await api(page, 'GET', `${group}/_drive/usage`)).json;
    await tid(page, 'disk-upload-input').setInputFiles({ name: 'extra.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1_000_000, 1) });
    const item = tid(page, 'upload-item-extra.bin');
    await item.and(page.locator('[data-stage="error"]')).waitFor();
    await item.getByRole('alert').getByText(/The drive of this Group is full: 8\.7 MB of its 9\.5 MB are used/).waitFor();
    shots.push(await shot(page, 'drive-s3-full'));
    const after = (await api(page, 'GET', `${group}/_drive/usage`)).json;
    expect(after.bytes).toBe(before.bytes);
    expect(after.files).toBe(before.files);
  });
});
