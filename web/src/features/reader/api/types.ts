// The reader's documents (SPEC §3) as the API returns them.

import type { Doc } from '../../../lib/couch';

/** A file an item carries (a podcast's episode), as its feed described it. */
export interface Enclosure {
  url: string;
  /** A MIME type ("audio/mpeg"), when the feed gave a valid one. */
  type?: string;
  /** Bytes, when the feed said. */
  length?: number;
}

export interface ReaderItem extends Doc {
  url?: string;
  title?: string;
  content?: string;
  content_type?: 'html' | 'text';
  summary?: string;
  author?: string;
  reader_subscription_id?: string;
  reader_subscription?: { _id: string; title?: string; label?: string };
  reader_label_ids?: string[];
  read?: boolean;
  starred?: boolean;
  posted_at?: string;
  content_loaded?: boolean;
  enclosures?: Enclosure[];
  /** In feed pages, which come without the content. */
  has_content?: boolean;
}

export interface ReaderSubscription extends Doc {
  url: string;
  website_url?: string;
  title?: string;
  customize_title?: boolean;
  active?: boolean;
  reader_label_ids?: string[];
  reader_label_id?: string;
  refresh_interval?: number;
  fetch_status?: 'ok' | 'error';
  fetch_error?: string;
}

export interface ReaderLabel extends Doc {
  name: string;
  label?: string;
  kind?: 'label' | 'folder';
}

export const READ_FILTERS = ['all', 'unread', 'read'] as const;
export const STARRED_FILTERS = ['all', 'starred', 'unstarred'] as const;
export type ReadFilter = (typeof READ_FILTERS)[number];
export type StarredFilter = (typeof STARRED_FILTERS)[number];
