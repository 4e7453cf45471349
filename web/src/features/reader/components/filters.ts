// The feed list's filters live in the URL (shareable, back-button safe):
// read (unread by default), starred, label and page.

import { useCallback, useMemo } from 'react';
import type { FeedFilters } from '../api/feed';
import { READ_FILTERS, STARRED_FILTERS, type ReadFilter, type StarredFilter } from '../api/types';
import { useLatestSearchParams } from '../../../lib/search-params';

const LABEL_ID = /^rlb-[0-9a-f]{32}$/;

export function parseFilters(sp: URLSearchParams): FeedFilters {
  const read = sp.get('read');
  const starred = sp.get('starred');
  const label = sp.get('label') ?? '';
  return {
    read: (READ_FILTERS as readonly string[]).includes(read ?? '') ? (read as ReadFilter) : 'unread',
    starred: (STARRED_FILTERS as readonly string[]).includes(starred ?? '') ? (starred as StarredFilter) : 'all',
    label: LABEL_ID.test(label) ? label : '',
    page: Math.max(1, Number.parseInt(sp.get('page') ?? '1', 10) || 1),
  };
}

/** useFeedFilters: the filters, and a setter that goes back to page 1 unless it sets the page. */
export function useFeedFilters() {
  const [sp, setSp] = useLatestSearchParams();
  const filters = useMemo(() => parseFilters(sp), [sp]);
  const set = useCallback(
    (patch: Partial<FeedFilters>) => {
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          const merged = { ...parseFilters(prev), page: 1, ...patch };
          const put = (key: string, value: string, fallback: string) => {
            if (value === fallback) next.delete(key);
            else next.set(key, value);
          };
          put('read', merged.read, 'unread');
          put('starred', merged.starred, 'all');
          put('label', merged.label, '');
          put('page', String(merged.page), '1');
          return next;
        },
        { preventScrollReset: true },
      );
    },
    [setSp],
  );
  return [filters, set] as const;
}
