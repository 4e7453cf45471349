// The feed list page (SPEC §2 "Feed list", §7, §9 page size 10):
// GET /{db}/_design/reader/_view/feed?read=&starred=&label=&page= — newest
// first, with the totals the server keeps.

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ReaderItem, ReadFilter, StarredFilter } from './types';

export const FEED_PAGE_SIZE = 10;

export interface FeedFilters {
  read: ReadFilter;
  starred: StarredFilter;
  label: string;
  page: number;
}

export interface FeedPage {
  total_rows: number;
  offset: number;
  page: number;
  pages: number;
  limit: number;
  rows: Array<{ id: string; key: string; doc: ReaderItem }>;
}

export const getFeed = (db: string, f: FeedFilters) =>
  api.get<FeedPage>(`${enc(db)}/_design/reader/_view/feed`, {
    read: f.read,
    starred: f.starred,
    label: f.label || undefined,
    page: f.page,
    limit: FEED_PAGE_SIZE,
  });

export const feedQuery = (db: string, f: FeedFilters) =>
  queryOptions({
    queryKey: ['reader', db, 'feed', f],
    queryFn: () => getFeed(db, f),
    placeholderData: keepPreviousData,
    // Not refetched on live notices: under the "unread" filter a refetch
    // drops the item just read (by this reader or a colleague), and the
    // list would shift under the cursor and the keyboard. Toggles patch the
    // cached page; counts stay live; "r" and a reload fetch the list again.
    meta: { live: false },
  });

export const useFeed = (db: string, f: FeedFilters) => useQuery(feedQuery(db, f));
