// The links app: klass Bookmark through the generic API, the Netscape
// bookmark file import (POST _links/import) and export (_links/export.html),
// and a page's title (POST _links/title).

import { api, apiUrl, enc, parseError, requestHeaders } from '../../../lib/api';
import { deleteDoc, find, postDoc, putDoc, type WriteResult } from '../../../lib/couch';
import { connectionError } from '../../../lib/errors';

export const SCOPE = 'bookmarks';

export interface Bookmark {
  _id: string;
  _rev: string;
  klass?: string;
  url: string;
  title?: string;
  description?: string;
  tags?: string[] | string;
  starred?: boolean;
  added_at?: string;
  [k: string]: unknown;
}

export interface BookmarkValues {
  url: string;
  title: string;
  description: string;
  tags: string;
  starred: boolean;
}

export interface ListInput {
  db: string;
  q: string;
  tag: string;
  starred: boolean;
  page: number;
  perPage: number;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** bookmarkSelector: the _find selector for a search (title, url, description), a tag and starred. */
export function bookmarkSelector(q: string, tag: string, starred: boolean): Record<string, unknown> {
  const sel: Record<string, unknown> = { klass: 'Bookmark' };
  const text = q.trim();
  if (text) {
    const re = { $regex: `(?i)${esc(text)}` };
    sel.$or = [{ title: re }, { url: re }, { description: re }];
  }
  if (tag) sel.tags = { $elemMatch: { $eq: tag } };
  if (starred) sel.starred = true;
  return sel;
}

/** tagList reads stored tags: a list, or a comma string from older data. */
export function tagList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  return typeof v === 'string' ? tagsOf(v) : [];
}

/** tagsOf reads "a, b,, c" into ["a", "b", "c"] without repeats. */
export function tagsOf(v: string): string[] {
  return [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
}

export const listQuery = (input: ListInput) => ({
  queryKey: [SCOPE, input.db, 'list', input] as const,
  queryFn: async () => {
    const res = await find<Bookmark>(input.db, {
      selector: bookmarkSelector(input.q, input.tag, input.starred),
      sort: [{ added_at: 'desc' }],
      limit: input.perPage + 1,
      skip: (input.page - 1) * input.perPage,
    });
    return { rows: res.docs.slice(0, input.perPage), hasMore: res.docs.length > input.perPage };
  },
});

/** allTags: the tags of the Group's bookmarks with counts (read from up to 2000 bookmarks). */
export const tagsQuery = (db: string) => ({
  queryKey: [SCOPE, db, 'tags'] as const,
  queryFn: async () => {
    const res = await find<Pick<Bookmark, 'tags'>>(db, { selector: { klass: 'Bookmark' }, fields: ['tags'], limit: 2000 });
    const counts = new Map<string, number>();
    for (const d of res.docs) for (const t of tagList(d.tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([tag, count]) => ({ tag, count }));
  },
});

export function saveBookmark(db: string, v: BookmarkValues, doc?: Bookmark): Promise<WriteResult> {
  const body = {
    klass: 'Bookmark',
    url: v.url.trim(),
    title: v.title.trim(),
    description: v.description,
    tags: tagsOf(v.tags),
    starred: v.starred,
  };
  if (doc) return putDoc(db, { ...doc, ...body });
  return postDoc(db, { ...body, added_at: new Date().toISOString() });
}

export const setStarred = (db: string, doc: Bookmark, starred: boolean) => putDoc(db, { ...doc, starred });

export const removeBookmark = (db: string, doc: Bookmark) => deleteDoc(db, doc._id, doc._rev);

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  failed: Array<{ url: string; title?: string; reason: string }>;
  more_failed?: number;
}

/**
 * importBookmarks sends a Netscape bookmark file as it is, reporting the
 * upload's progress (0..1) while it goes; the server's answer is the summary.
 */
export function importBookmarks(db: string, html: string, onProgress?: (fraction: number) => void): Promise<ImportResult> {
  const { headers, withCredentials } = requestHeaders('POST');
  return new Promise<ImportResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(`${enc(db)}/_links/import`));
    xhr.withCredentials = withCredentials;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', 'text/html; charset=utf-8');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(connectionError());
    xhr.onload = () => {
      const res = new Response(xhr.responseText || null, { status: xhr.status, headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'application/json' } });
      if (!res.ok) {
        void parseError(res).then(reject, reject);
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as ImportResult);
      } catch {
        reject(connectionError());
      }
    };
    xhr.send(html);
  });
}

/** fetchTitle reads a page's title through the server's fetch guard (POST _links/title); nothing is stored. */
export const fetchTitle = (db: string, url: string) => api.post<{ url: string; title: string }>(`${enc(db)}/_links/title`, { url });

export const exportUrl = (db: string) => apiUrl(`${enc(db)}/_links/export.html`);

/** isWebUrl: the server takes only http and https addresses. */
export function isWebUrl(s: string): boolean {
  try {
    const u = new URL(s.trim());
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
