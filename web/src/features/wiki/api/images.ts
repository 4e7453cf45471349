// Images pasted or dropped into the page editor go to the Group's drive
// (shared/drive, /api/{db}/_drive/…), into a root folder named "wiki" made on
// first use: a CloudFile entry, then its bytes in one PUT. The page links the
// drive's inline content URL, the only image source the wiki's sanitiser
// keeps. An upload that fails leaves no empty entry behind.

import { api, apiUrl, enc, parseError, requestHeaders } from '../../../lib/api';
import type { WriteResult } from '../../../lib/couch';
import { ApiError, connectionError } from '../../../lib/errors';

export const WIKI_FOLDER = 'wiki';
/** Larger images belong in the drive's own chunked upload. */
export const MAX_IMAGE_BYTES = 20 * 1000 * 1000;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

interface Entry {
  _id: string;
  name: string;
  kind: string;
}

/** isImageFile: a type the drive serves inline (so the page can show it). */
export const isImageFile = (f: { type: string }) => IMAGE_TYPES.has(f.type);

/** imageName names an upload: its own name, or "pasted-<time>.<ext>" for a clipboard image, with a short suffix so it never collides. */
export function imageName(file: { name?: string; type: string }, now: Date, suffix: string): string {
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'img';
  const raw = (file.name ?? '').trim();
  const base = raw && raw !== 'image.png' ? raw.replace(/\.[A-Za-z0-9]{1,5}$/, '') : `pasted-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  const clean = base.replace(/[\\/\u0000-\u001f]/g, '-').slice(0, 120);
  return `${clean}-${suffix}.${ext}`;
}

/** imageMarkdown: the Markdown image of an uploaded file ([ ] and ( ) in the alt text escaped). */
export function imageMarkdown(db: string, id: string, alt: string): string {
  const text = alt.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/([[\]\\])/g, '\\$1');
  return `![${text}](${driveImageUrl(db, id)})`;
}

export const driveImageUrl = (db: string, id: string) => `/api/${enc(db)}/_drive/files/${enc(id)}/content?inline=true`;

/** wikiFolder finds the root folder "wiki", making it when missing (a racing tab's folder is found again). */
export async function wikiFolder(db: string): Promise<string> {
  const find = async () => {
    let after: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await api.get<{ entries: Entry[]; next?: string | null }>(`${enc(db)}/_drive/dirs/root`, { limit: 100, after });
      const dir = page.entries.find((e) => e.kind === 'dir' && e.name === WIKI_FOLDER);
      if (dir) return dir._id;
      // Folders come first: once files start, no folder follows.
      if (!page.next || page.entries.some((e) => e.kind !== 'dir')) return null;
      after = page.next;
    }
    return null;
  };
  const found = await find();
  if (found) return found;
  try {
    return (await api.post<WriteResult>(enc(db), { klass: 'CloudFile', kind: 'dir', name: WIKI_FOLDER, dir_id: '' })).id;
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      const again = await find();
      if (again) return again;
    }
    throw e;
  }
}

function putBytes(db: string, id: string, rev: string, file: Blob): Promise<void> {
  const { headers, withCredentials } = requestHeaders('PUT');
  return fetch(apiUrl(`${enc(db)}/_drive/files/${enc(id)}/content`, { rev }), {
    method: 'PUT',
    credentials: withCredentials ? 'include' : 'same-origin',
    headers: { ...headers, 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
  }).then(
    async (res) => {
      if (!res.ok) throw await parseError(res);
    },
    () => {
      throw connectionError();
    },
  );
}

/** uploadImage stores an image in the drive's "wiki" folder and answers its Markdown. */
export async function uploadImage(db: string, file: File, now = new Date()): Promise<{ id: string; markdown: string }> {
  if (!isImageFile(file)) throw new ApiError(415, 'bad_content_type', 'Only PNG, JPEG, GIF, WebP and AVIF images can be added to a page');
  if (file.size > MAX_IMAGE_BYTES) throw new ApiError(413, 'too_large', 'The image is larger than 20 MB: upload it in the drive and link it');
  const dir = await wikiFolder(db);
  const name = imageName(file, now, Math.random().toString(16).slice(2, 8));
  const entry = await api.post<WriteResult>(enc(db), { klass: 'CloudFile', kind: 'file', name, dir_id: dir });
  try {
    await putBytes(db, entry.id, entry.rev, file);
  } catch (e) {
    await api.del(`${enc(db)}/${enc(entry.id)}`, { rev: entry.rev }).catch(() => undefined);
    throw e;
  }
  return { id: entry.id, markdown: imageMarkdown(db, entry.id, name) };
}
