// OPML export (GET /{db}/_reader/opml, a file download) and import: the file
// is read here, its feeds sent in chunks to POST /{db}/_reader/opml so a
// 1,000-feed file shows its progress. Nested outlines become labels.

import { apiUrl, enc } from '../../../lib/api';
import { api } from '../../../lib/api';

export const opmlExportUrl = (db: string) => apiUrl(`${enc(db)}/_reader/opml`);

export interface Outline {
  url: string;
  title: string;
  html_url: string;
  labels: string[];
}

/**
 * parseOpml reads the feeds of an OPML file: every outline with an xmlUrl,
 * labelled with the outlines it sits in; a feed listed twice is one feed
 * with both places' labels. Throws when the text is not OPML.
 */
export function parseOpml(text: string): Outline[] {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0 || doc.documentElement.nodeName.toLowerCase() !== 'opml') {
    throw new Error('not-opml');
  }
  const body = doc.getElementsByTagName('body')[0];
  const out: Outline[] = [];
  const at = new Map<string, Outline>();
  const walk = (parent: Element, labels: string[]) => {
    for (const el of Array.from(parent.children)) {
      if (el.nodeName.toLowerCase() !== 'outline') continue;
      const name = (el.getAttribute('text') || el.getAttribute('title') || '').trim();
      const xml = (el.getAttribute('xmlUrl') || '').trim();
      if (xml) {
        const key = xml.toLowerCase().replace(/#.*$/, '');
        let o = at.get(key);
        if (!o) {
          o = { url: xml, title: (el.getAttribute('title') || name).trim(), html_url: (el.getAttribute('htmlUrl') || '').trim(), labels: [] };
          at.set(key, o);
          out.push(o);
        }
        for (const l of labels) if (!o.labels.includes(l)) o.labels.push(l);
      } else {
        walk(el, name ? [...labels, name] : labels);
      }
    }
  };
  if (body) walk(body, []);
  return out;
}

export interface ImportResult {
  ok: boolean;
  created: number;
  updated: number;
  unchanged: number;
  labels_created: number;
  failed: Array<{ url: string; reason: string }>;
}

export interface ImportProgress extends ImportResult {
  done: number;
  total: number;
}

export const IMPORT_CHUNK = 50;

export const importChunk = (db: string, outlines: Outline[]) => api.post<ImportResult>(`${enc(db)}/_reader/opml`, { outlines });

/** importOpml sends the outlines in chunks, reporting the running totals after each. */
export async function importOpml(db: string, outlines: Outline[], onProgress: (p: ImportProgress) => void): Promise<ImportProgress> {
  const p: ImportProgress = { ok: true, created: 0, updated: 0, unchanged: 0, labels_created: 0, failed: [], done: 0, total: outlines.length };
  onProgress({ ...p });
  for (let i = 0; i < outlines.length; i += IMPORT_CHUNK) {
    const chunk = outlines.slice(i, i + IMPORT_CHUNK);
    const r = await importChunk(db, chunk);
    p.created += r.created;
    p.updated += r.updated;
    p.unchanged += r.unchanged;
    p.labels_created += r.labels_created;
    p.failed.push(...r.failed);
    p.done += chunk.length;
    onProgress({ ...p, failed: [...p.failed] });
  }
  return p;
}
