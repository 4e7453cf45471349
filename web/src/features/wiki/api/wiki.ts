// The wiki's own routes (shared/wiki): search, recents, categories, the
// rendered page, versions, conflicts, preview and title completion.

import { api, apiUrl, enc } from '../../../lib/api';
import { find, type Stamp } from '../../../lib/couch';

export const SCOPE = 'wiki';

export interface PageRef {
  id: string;
  title: string;
}

export interface OldTitle {
  title: string;
  /** When the page stopped having that title. */
  until?: string;
}

/** oldTitles reads a page's title history (objects from the server; plain strings tolerated). */
export function oldTitles(v: unknown): OldTitle[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((h): OldTitle[] => {
    if (typeof h === 'string') return h ? [{ title: h }] : [];
    if (h && typeof h === 'object' && typeof (h as OldTitle).title === 'string') {
      const o = h as OldTitle;
      return [typeof o.until === 'string' ? { title: o.title, until: o.until } : { title: o.title }];
    }
    return [];
  });
}

export interface SearchRow {
  id: string;
  title: string;
  title_html: string;
  categories?: string[];
  updated_at?: string;
  title_match?: boolean;
  snippet?: string;
}

export interface SearchResponse {
  total: number;
  rows: SearchRow[];
}

/** Who last changed a page, as the server stamps it ({_id, label}); older answers carried a name. */
export type Author = Stamp | string;

/** authorName: the author's name to show (issue 22 item 13: never "[object Object]"). */
export function authorName(a: Author | null | undefined): string {
  if (!a) return '';
  return typeof a === 'string' ? a : a.label || '';
}

export interface RecentResponse {
  changed: Array<{ id: string; title: string; updated_at?: string; updated_by?: Author }>;
  viewed: Array<{ id: string; title: string; at?: string }>;
}

export interface RenderedPage {
  id: string;
  rev: string;
  title: string;
  categories?: string[];
  content_type?: string;
  updated_at?: string;
  updated_by?: Author;
  /** Former titles, newest first (each still resolves to this page). */
  title_history?: Array<OldTitle | string>;
  html: string;
  links: PageRef[];
  wanted: string[];
  linked_by: PageRef[];
}

export interface VersionRow {
  rev: string;
  seq?: number | string;
  at?: string;
  by?: { _id?: string; label?: string };
  title: string;
  size?: number;
  current?: boolean;
}

export interface VersionDoc {
  rev: string;
  at?: string;
  by?: { _id?: string; label?: string };
  title: string;
  content: string;
  content_type?: string;
  categories?: string[];
  fields?: Array<{ field_name: string; field_value: string }>;
  uri?: string;
  value_for?: string;
}

export interface Handbook {
  _id: string;
  _rev: string;
  klass?: string;
  title: string;
  content?: string;
  content_type?: string;
  categories?: string[] | string;
  updated_at?: string;
  [k: string]: unknown;
}

export interface ConflictResponse {
  id: string;
  conflict: boolean;
  /** The current document as GET answers it (with _id and _rev): a merge is saved over it. */
  current: Handbook;
  current_by?: { _id?: string; label?: string } | null;
  current_at?: string;
  ancestor: (Omit<Handbook, '_rev' | '_id'> & { rev: string }) | null;
  changes: unknown[];
}

const base = (db: string) => `${enc(db)}/_wiki`;

export const searchPages = (db: string, q: string, category: string, limit = 50) =>
  api.get<SearchResponse>(`${base(db)}/search`, { q, category: category || undefined, limit });

export const recentPages = (db: string, limit = 10) => api.get<RecentResponse>(`${base(db)}/recent`, { limit });

export const categoriesList = (db: string) => api.get<{ rows: Array<{ category: string; count: number }> }>(`${base(db)}/categories`);

export const renderedPage = (db: string, id: string) => api.get<RenderedPage>(`${base(db)}/pages/${enc(id)}/html`);

export const pageVersions = (db: string, id: string) =>
  api.get<{ id: string; deleted?: boolean; versions: VersionRow[] }>(`${base(db)}/pages/${enc(id)}/versions`);

export const pageVersion = (db: string, id: string, rev: string) => api.get<VersionDoc>(`${base(db)}/pages/${enc(id)}/versions/${enc(rev)}`);

export const pageConflict = (db: string, id: string, rev: string) => api.get<ConflictResponse>(`${base(db)}/pages/${enc(id)}/conflict`, { rev });

export const previewHtml = (db: string, content: string, content_type?: string) =>
  api.post<{ html: string; links: PageRef[]; wanted: string[] }>(`${base(db)}/preview`, { content, content_type });

export const resolveTitle = (db: string, title: string) => api.get<{ id: string; title: string; redirected: boolean }>(`${base(db)}/resolve`, { title });

export const titleCompletions = (db: string, q: string, limit = 8) => api.get<{ rows: PageRef[] }>(`${base(db)}/titles`, { q, limit });

export const exportZipUrl = (db: string, opts: { id?: string; category?: string } = {}) =>
  apiUrl(`${base(db)}/export.zip`, { id: opts.id, category: opts.category });

/** exportPdfUrl: one page, a category or the whole wiki laid out in one PDF by the server. */
export const exportPdfUrl = (db: string, opts: { id?: string; category?: string } = {}) =>
  apiUrl(`${base(db)}/export.pdf`, { id: opts.id, category: opts.category });

export const highlightCssUrl = (db: string, style?: string) => apiUrl(`${base(db)}/highlight.css`, { style });

/** categoriesOf reads a page's categories, a list or a comma string. */
export function categoriesOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim());
  if (typeof v === 'string') return v.split(',').map((c) => c.trim()).filter(Boolean);
  return [];
}

export interface PagesInput {
  db: string;
  q: string;
  category: string;
  orderBy: string;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** pagesSelector: the _find selector of the pages index (title search, one category). */
export function pagesSelector(q: string, category: string): Record<string, unknown> {
  const sel: Record<string, unknown> = { klass: 'Handbook' };
  const text = q.trim();
  if (text) sel.title = { $regex: `(?i)${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` };
  if (category) sel.categories = { $elemMatch: { $eq: category } };
  return sel;
}

/** pagesQuery: one page of the index, one extra row to know more exist. */
export const pagesQuery = (input: PagesInput) => ({
  queryKey: [SCOPE, input.db, 'pages', input] as const,
  queryFn: async () => {
    const res = await find<Handbook>(input.db, {
      selector: pagesSelector(input.q, input.category),
      fields: ['_id', '_rev', 'title', 'categories', 'updated_at'],
      sort: [{ [input.orderBy]: input.direction }],
      limit: input.perPage + 1,
      skip: (input.page - 1) * input.perPage,
    });
    return { rows: res.docs.slice(0, input.perPage), hasMore: res.docs.length > input.perPage };
  },
});
