// Issue 13 end to end in headless Chromium against the real Go server: the
// drive's screens (/disk, /disk/{dir_id}). A Group's user makes a folder,
// uploads a file by the button and by a drop with the queue's stages and
// progress, uploads three more versions of it (the oldest of four is gone),
// restores one, downloads one (bytes checked), moves a folder with a file
// into another through the move dialog (fullpaths follow) and is refused
// moving a folder into itself, trashes and restores, empties the trash, sees
// the quota bar move, is told under the field what is wrong with a hostile
// name, sees a customer's folder on its show screen, and opens the WebDAV
// help and makes a token there. Screenshots go to
// test-results/drive-*.png (light and dark, and 390 px wide).

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, closeAll, openBrowser, preflight, shot, shotBoth, signUpWithGroup, startServer, tid, type Browser, type Server } from './harness';

const ANA = { email: 'ana.drive@oficina.test', name: 'Ana Drive', password: 'correct horse battery' };

let server: Server;
let ana: Browser;
let group = '';
const shots: string[] = [];

/** bytes of a version: its number repeated, so each version's content differs and is known. */
const content = (n: number, size = 200_000) => Buffer.alloc(size, String.fromCharCode(64 + n));

const row = (page: Page, name: string) => page.locator('[data-row]', { has: page.getByText(name, { exact: true }) });

async function entryId(page: Page, name: string): Promise<string> {
  const r = row(page, name);
  await r.waitFor();
  return ((await r.getAttribute('data-testid')) ?? '').replace(/^disk-row-/, '');
}

async function quotaText(page: Page): Promise<string> {
  const q = tid(page, 'disk-quota');
  await q.locator('[role=progressbar]').waitFor();
  return (await q.textContent()) ?? '';
}

async function usage(page: Page): Promise<{ bytes: number; trash_bytes: number; trash_entries: number }> {
  const u = await api(page, 'GET', `${group}/_drive/usage`);
  expect(u.status, u.text).toBe(200);
  return u.json;
}

/** upload sends one file through the page's Upload button and waits for its queue item to be done. */
async function upload(page: Page, name: string, buffer: Buffer) {
  await tid(page, 'disk-upload-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  const item = tid(page, 'upload-queue').locator(`[data-testid="upload-item-${name}"]`).last();
  await item.and(page.locator('[data-stage="done"]')).waitFor();
}

async function selectRow(page: Page, name: string) {
  await row(page, name).click();
  await tid(page, 'entry-panel').waitFor();
}

describe('the drive in a real browser', () => {
  beforeAll(async () => {
    server = await startServer(preflight());
    ana = await openBrowser(server.baseURL);
  }, 60_000);

  afterEach(async (ctx) => {
    // A failed step leaves a picture of where it stopped.
    if (ctx.task.result?.state === 'fail' && ana) shots.push(await shot(ana.page, 'drive-failed'));
  });

  afterAll(async () => {
    await closeAll(server, [ana], shots);
  }, 60_000);

  it('opens an empty drive and makes a folder', async () => {
    const page = ana.page;
    group = await signUpWithGroup(page, server.dataDir, ANA, 'Oficina Arquivos');
    await page.goto(`/account/${group}`);
    // /disk works on the tab's active Group, which opening the account sets.
    await page.waitForFunction((g) => (sessionStorage.getItem('oficina.activeDb') ?? '').includes(g), group);
    await page.goto('/disk');
    await tid(page, 'disk-empty').waitFor();
    expect(await quotaText(page)).toMatch(/0 B used of/);

    await tid(page, 'disk-new-folder').click();
    const field = tid(page, 'disk-newfolder').getByLabel('Folder name');
    await field.fill('Contratos');
    await field.press('Enter');
    await row(page, 'Contratos').waitFor();
  });

  it('refuses hostile names under the field, and creates nothing', async () => {
    const page = ana.page;
    const form = tid(page, 'disk-newfolder');
    for (const [name, message] of [
      ['a/b', /cannot hold a slash/i],
      ['..', /are not names/],
      ['x'.repeat(256), /At most 255/],
      ['bad\u0007bell', /control characters/],
      ['\u202Egpj.exe', /control characters/],
    ] as const) {
      await tid(page, 'disk-new-folder').click();
      const field = form.getByLabel('Folder name');
      await field.fill(name);
      await field.press('Enter');
      await form.getByText(message).waitFor();
      await form.getByRole('button', { name: 'Cancel' }).click();
    }
    // The same name twice in one folder: a 409 with the reason under the field.
    await tid(page, 'disk-new-folder').click();
    await form.getByLabel('Folder name').fill('Contratos');
    await form.getByLabel('Folder name').press('Enter');
    await form.locator('.amplify-field__error-message').waitFor();
    shots.push(await shot(page, 'drive-name-error'));
    await form.getByRole('button', { name: 'Cancel' }).click();
    const root = await api(page, 'GET', `${group}/_drive/dirs/root`);
    expect(root.json.entries.map((e: { name: string }) => e.name)).toEqual(['Contratos']);
  });

  it('uploads a file by the button with the stages and progress, then three more versions: the oldest of four is gone', async () => {
    const page = ana.page;
    const before = await usage(page);
    await page.route('**/_drive/uploads/*?offset=*', async (route) => {
      await new Promise((r) => setTimeout(r, 150)); // slow enough to see the stage and progress
      await route.continue();
    });
    await tid(page, 'disk-upload-input').setInputFiles({ name: 'orcamento.txt', mimeType: 'text/plain', buffer: content(1) });
    const item = tid(page, 'upload-item-orcamento.txt');
    await item.and(page.locator('[data-stage="uploading"]')).waitFor();
    expect(await item.textContent()).toMatch(/Uploading/);
    shots.push(await shot(page, 'drive-uploading'));
    await item.and(page.locator('[data-stage="done"]')).waitFor();
    expect(await item.locator('[role=progressbar]').getAttribute('aria-valuenow')).toBe('100');
    expect(await item.textContent()).toMatch(/Done/);
    await page.unroute('**/_drive/uploads/*?offset=*');
    await row(page, 'orcamento.txt').waitFor();
    expect(await row(page, 'orcamento.txt').textContent()).toContain('200.0 kB');
    await expect.poll(async () => (await usage(page)).bytes).toBe(before.bytes + 200_000);
    await expect.poll(() => quotaText(page)).toMatch(/200\.0 kB used of/);

    for (const n of [2, 3, 4]) await upload(page, 'orcamento.txt', content(n, 200_000 + n));
    const id = await entryId(page, 'orcamento.txt');
    await selectRow(page, 'orcamento.txt');
    const versions = tid(page, 'versions-panel').locator('li');
    await expect.poll(() => versions.count()).toBe(3);
    const doc = await api(page, 'GET', `${group}/${id}`);
    expect(doc.json.versions.map((v: { size: number }) => v.size)).toEqual([200_004, 200_003, 200_002]);
    // The blob store holds only the three listed versions: the quota counts them.
    await expect.poll(async () => (await usage(page)).bytes).toBe(before.bytes + 200_004 + 200_003 + 200_002);
    expect(await tid(page, 'versions-panel').textContent()).toMatch(/keeps 3 versions/);
    shots.push(...(await shotBoth(page, 'drive-versions', async () => {
      await selectRow(page, 'orcamento.txt');
      await expect.poll(() => versions.count()).toBe(3);
    })));
  });

  it('restores a version (it becomes the newest) and downloads one with its bytes', async () => {
    const page = ana.page;
    const id = await entryId(page, 'orcamento.txt');
    await selectRow(page, 'orcamento.txt');
    const panel = tid(page, 'versions-panel');
    const doc = await api(page, 'GET', `${group}/${id}`);
    const oldest = doc.json.versions[2];
    await panel.locator(`[data-testid="version-row-${oldest.id}"]`).getByRole('button', { name: 'Restore' }).click();
    await expect.poll(async () => (await api(page, 'GET', `${group}/${id}`)).json.versions.length).toBe(3);
    await expect.poll(async () => (await api(page, 'GET', `${group}/${id}`)).json.versions[0].size).toBe(200_002);
    const first = panel.locator('li').first();
    await expect.poll(() => first.textContent()).toMatch(/Current.*200\.0 kB/);

    // Download the current version through the panel's link: the bytes are the restored ones.
    const [download] = await Promise.all([page.waitForEvent('download'), tid(page, 'entry-download').click()]);
    expect(download.suggestedFilename()).toBe('orcamento.txt');
    const got = readFileSync((await download.path())!);
    expect(got.equals(content(2, 200_002))).toBe(true);
    // And an older version from its row.
    const now = (await api(page, 'GET', `${group}/${id}`)).json.versions;
    const [old] = await Promise.all([
      page.waitForEvent('download'),
      panel.locator(`[data-testid="version-row-${now[1].id}"]`).getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(readFileSync((await old.path())!).equals(content(4, 200_004))).toBe(true);
  });

  it('rides out a dropped connection mid-upload, resuming from what the server acknowledged', async () => {
    const page = ana.page;
    const big = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    let cut = 0;
    const sent: number[] = [];
    await page.route('**/_drive/uploads/*?offset=*', async (route) => {
      const offset = Number(new URL(route.request().url()).searchParams.get('offset'));
      sent.push(offset);
      if (offset === 65536 && cut++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    try {
      await tid(page, 'disk-upload-input').setInputFiles({ name: 'video.bin', mimeType: 'application/octet-stream', buffer: big });
      await tid(page, 'upload-item-video.bin').and(page.locator('[data-stage="done"]')).waitFor();
    } finally {
      await page.unroute('**/_drive/uploads/*?offset=*');
    }
    // The cut chunk was sent again from the server's offset; the others once.
    expect(sent).toEqual([0, 65536, 65536, 131072, 196608, 262144]);
    const id = await entryId(page, 'video.bin');
    const got = await page.evaluate(async (u) => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer())), `/api/${group}/_drive/files/${id}/content`);
    expect(Buffer.from(got).equals(big)).toBe(true);
    // Out of the way of the quota figures below.
    expect((await api(page, 'POST', `${group}/_drive/files/${id}/trash`, {})).status).toBe(200);
    expect((await api(page, 'DELETE', `${group}/_drive/trash/${id}`)).status).toBe(200);
  });

  it('uploads by a drop into a folder, and moves that folder into another through the move dialog (fullpaths follow)', async () => {
    const page = ana.page;
    await page.goto('/disk');
    await row(page, 'Contratos').getByRole('link').click();
    await tid(page, 'disk-empty').waitFor();
    // A drop of a file from the desktop: Chromium's own DataTransfer carrying a File.
    const dt = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File(['contrato assinado'], 'contrato.pdf', { type: 'application/pdf' }));
      d.items.add(new File(['anexo'], 'anexo.txt', { type: 'text/plain' }));
      return d;
    });
    const zone = page.locator('.disk-drop');
    await zone.dispatchEvent('dragenter', { dataTransfer: dt });
    await zone.dispatchEvent('dragover', { dataTransfer: dt });
    await zone.dispatchEvent('drop', { dataTransfer: dt });
    // Both files of the drop go through the queue, one after the other.
    await tid(page, 'upload-item-contrato.pdf').and(page.locator('[data-stage="done"]')).waitFor();
    await tid(page, 'upload-item-anexo.txt').and(page.locator('[data-stage="done"]')).waitFor();
    await row(page, 'anexo.txt').waitFor();
    const fileId = await entryId(page, 'contrato.pdf');
    // The breadcrumb names the working folder.
    expect(await page.locator('nav[aria-label="Folder path"]').textContent()).toContain('Contratos');

    await page.goto('/disk');
    await tid(page, 'disk-new-folder').click();
    await tid(page, 'disk-newfolder').getByLabel('Folder name').fill('Arquivo 2025');
    await tid(page, 'disk-newfolder').getByLabel('Folder name').press('Enter');
    const archive = await entryId(page, 'Arquivo 2025');
    await selectRow(page, 'Contratos');
    await tid(page, 'entry-move').click();
    const dialog = tid(page, 'move-dialog');
    await dialog.locator(`[data-testid="move-open-${archive}"]`).click();
    await dialog.getByText('No folders here.').waitFor();
    shots.push(await shot(page, 'drive-move-dialog'));
    await tid(page, 'move-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Contratos').waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await api(page, 'GET', `${group}/${fileId}`)).json.fullpath)
      .toBe('/Arquivo 2025/Contratos/contrato.pdf');
  });

  it('refuses moving a folder into itself with a clear message, in the dialog and at the server', async () => {
    const page = ana.page;
    const archive = await entryId(page, 'Arquivo 2025');
    await selectRow(page, 'Arquivo 2025');
    await tid(page, 'entry-move').click();
    const dialog = tid(page, 'move-dialog');
    await dialog.locator(`[data-testid="move-open-${archive}"]`).click();
    await tid(page, 'move-inside').waitFor();
    expect(await tid(page, 'move-inside').textContent()).toMatch(/cannot be moved into itself/);
    expect(await tid(page, 'move-confirm').isDisabled()).toBe(true);
    shots.push(await shot(page, 'drive-move-refused'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The server says so too, and changes nothing.
    const inner = (await api(page, 'GET', `${group}/_drive/dirs/${archive}`)).json.entries[0];
    const doc = (await api(page, 'GET', `${group}/${archive}`)).json;
    const res = await api(page, 'PUT', `${group}/${archive}`, { ...doc, dir_id: inner._id });
    expect(res.status, res.text).toBe(422);
    expect(res.json.fields.dir_id.join(' ')).toMatch(/inside the folder being moved/);
    expect((await api(page, 'GET', `${group}/${archive}`)).json._rev).toBe(doc._rev);
  });

  it('edits an entry (colour, description, star, versions kept) with errors under the fields, and stars from the list', async () => {
    const page = ana.page;
    await page.goto('/disk');
    const id = await entryId(page, 'orcamento.txt');
    await selectRow(page, 'orcamento.txt');
    await tid(page, 'entry-edit').click();
    const form = tid(page, 'entry-edit-form');
    await form.getByLabel('Colour', { exact: true }).fill('red');
    await form.getByLabel('Versions kept').fill('0');
    await form.getByLabel('Name').fill('a/b');
    await tid(page, 'entry-save').click();
    await form.getByText('Use the #rrggbb form.').waitFor();
    await form.getByText('From 1 to 100.').waitFor();
    await form.getByText('A name cannot hold a slash (/).').waitFor();
    shots.push(await shot(page, 'drive-edit-errors'));
    await form.getByLabel('Name').fill('orcamento.txt');
    await form.getByLabel('Colour', { exact: true }).fill('#C0392B');
    await form.getByLabel('Versions kept').fill('5');
    await form.getByLabel('Description').fill('Orçamento do cliente');
    await tid(page, 'entry-save').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(async () => (await api(page, 'GET', `${group}/${id}`)).json.max_versions).toBe(5);
    const doc = (await api(page, 'GET', `${group}/${id}`)).json;
    expect([doc.color, doc.description, doc.starred]).toEqual(['#c0392b', 'Orçamento do cliente', false]);
    await row(page, 'orcamento.txt').locator('.disk-dot').waitFor();
    await tid(page, 'versions-panel').getByText(/keeps 5 versions/).waitFor();
    // The star of the row.
    const star = row(page, 'orcamento.txt').getByRole('button', { name: 'Star orcamento.txt' });
    await star.click();
    await row(page, 'orcamento.txt').getByRole('button', { name: 'Remove the star of orcamento.txt' }).waitFor();
    await expect.poll(async () => (await api(page, 'GET', `${group}/${id}`)).json.starred).toBe(true);
  });

  it('says so when a folder does not exist', async () => {
    const page = ana.page;
    await page.goto(`/disk/fle-${'0'.repeat(32)}`);
    await tid(page, 'disk-error').waitFor();
    shots.push(await shot(page, 'drive-missing-folder'));
  });

  it('trashes and restores a file, then empties the trash: the quota bar moves', async () => {
    const page = ana.page;
    await page.goto('/disk');
    const id = await entryId(page, 'orcamento.txt');
    const before = await quotaText(page);
    await selectRow(page, 'orcamento.txt');
    await tid(page, 'entry-trash').click();
    await tid(page, 'entry-trash-confirm').click();
    await row(page, 'orcamento.txt').waitFor({ state: 'detached' });
    await tid(page, 'disk-view-trash').click();
    const trashed = tid(page, `trash-row-${id}`);
    await trashed.waitFor();
    await expect.poll(() => quotaText(page)).toMatch(/trash: 600\.0 kB in 1 entry/);
    shots.push(...(await shotBoth(page, 'drive-trash', () => tid(page, `trash-row-${id}`).waitFor())));
    await trashed.getByRole('button', { name: 'Restore' }).click();
    await tid(page, 'trash-empty').waitFor();
    await tid(page, 'disk-view-files').click();
    await row(page, 'orcamento.txt').waitFor();
    expect((await api(page, 'GET', `${group}/${id}`)).json.versions).toHaveLength(3);

    await selectRow(page, 'orcamento.txt');
    await tid(page, 'entry-trash').click();
    await tid(page, 'entry-trash-confirm').click();
    await tid(page, 'disk-view-trash').click();
    await tid(page, 'trash-empty-button').click();
    await tid(page, 'trash-empty-confirm').click();
    await tid(page, 'trash-empty').waitFor();
    await page.getByRole('status').getByText(/1 entry deleted, 600\.0 kB freed/).waitFor();
    await expect.poll(() => quotaText(page)).not.toBe(before);
    await expect.poll(() => quotaText(page)).toMatch(/^22 B used of 100\.0 MB · trash: 0 B in 0 entries$/);
    const u = await usage(page);
    expect(u.bytes).toBe(22);
    expect(u.trash_entries).toBe(0);
  });

  it('shows the WebDAV help with the address and makes a token for it', async () => {
    const page = ana.page;
    await page.goto('/disk?view=webdav');
    await tid(page, 'webdav-help').waitFor();
    expect(await tid(page, 'webdav-url').textContent()).toBe(`${server.baseURL}/dav/`);
    for (const heading of ['macOS Finder', 'Windows Explorer', 'Linux (davfs2)', 'rclone']) {
      await tid(page, 'webdav-help').getByRole('heading', { name: heading }).waitFor();
    }
    await tid(page, 'webdav-token-create').click();
    const token = tid(page, 'webdav-token');
    await token.waitFor();
    const secret = ((await token.textContent()) ?? '').trim();
    expect(secret.length).toBeGreaterThan(20);
    // The address and the token work: a WebDAV client sees the Group's folder.
    const res = await fetch(`${server.baseURL}/dav/`, {
      method: 'PROPFIND',
      headers: { Depth: '1', Authorization: `Basic ${Buffer.from(`${ANA.email}:${secret}`).toString('base64')}` },
    });
    expect(res.status).toBe(207);
    expect(await res.text()).toContain(`/dav/${group}/`);
    expect(await tid(page, 'webdav-group-url').textContent()).toBe(`${server.baseURL}/dav/${group}/`);
    shots.push(...(await shotBoth(page, 'drive-webdav', () => tid(page, 'webdav-help').waitFor())));
  });

  it("lists a record's folder on its show screen: made there, opened in the drive, its file listed", async () => {
    const page = ana.page;
    const c = await api(page, 'POST', group, { klass: 'Customer', name: 'Oficina do Zé' });
    expect(c.status, c.text).toBe(201);
    await page.goto(`/account/${group}/customers/${c.json.id}`);
    const panel = tid(page, 'files-panel');
    await panel.getByText('No folder for its files yet.').waitFor();
    await tid(page, 'record-files-create').click();
    await panel.getByText('Its folder is empty: open it to upload files.').waitFor();
    await tid(page, 'record-files-open').click();
    await page.waitForURL(/\/disk\/fle-[0-9a-f]{32}$/);
    await tid(page, 'disk-empty').waitFor();
    await page.getByRole('heading', { name: 'Oficina do Zé' }).waitFor();
    await upload(page, 'nota fiscal.pdf', Buffer.from('%PDF-1.4 nota'));
    await page.goto(`/account/${group}/customers/${c.json.id}`);
    await panel.getByText('nota fiscal.pdf').waitFor();
    shots.push(await shot(page, 'drive-record-files'));
  });

  it('works from the keyboard, in pt-BR, and fits a phone at 390 px', async () => {
    const page = ana.page;
    await page.goto('/disk');
    const first = page.locator('[data-row]').first();
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter'); // selects the folder
    await tid(page, 'entry-panel').waitFor();
    await page.keyboard.press('Enter'); // opens it
    await page.waitForURL(/\/disk\/fle-/);
    await page.goto('/disk');

    await tid(page, 'user-menu').click();
    await tid(page, 'locale-pt-BR').click();
    await page.locator('html[lang="pt-BR"]').waitFor();
    await tid(page, 'disk-quota').getByText(/usados de 100,0 MB/).waitFor();
    await tid(page, 'disk-new-folder').getByText('Nova pasta').waitFor();
    shots.push(await shot(page, 'drive-pt-BR'));
    await tid(page, 'user-menu').click();
    await tid(page, 'locale-en').click();
    await page.locator('html[lang="en"]').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto('/disk');
      await row(page, 'Arquivo 2025').waitFor();
      await selectRow(page, 'Arquivo 2025');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'drive-390'));
      await page.goto('/disk?view=webdav');
      await tid(page, 'webdav-help').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      shots.push(await shot(page, 'drive-webdav-390'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
