import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { feedQuery } from '../../features/reader/api/feed';
import { invalidateDb } from './LiveUpdates';

describe('invalidateDb', () => {
  it('marks stale the queries naming the db, except those that opt out of live refetches', () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    const feed = feedQuery(db, { read: 'unread', starred: 'all', label: '', page: 1 });
    qc.setQueryData(['reader', db, 'unread'], { '': 3 });
    qc.setQueryData(['tickets', 'acc-2'], []);
    // Built with its options (and meta) as useQuery would, then filled.
    qc.getQueryCache().build(qc, { queryKey: [...feed.queryKey], meta: feed.meta });
    qc.setQueryData(feed.queryKey, { total_rows: 0, offset: 0, page: 1, pages: 1, limit: 10, rows: [] });

    invalidateDb(qc, db, 'usr-1', [{ db, seq: 9, id: 'x', klass: 'ReaderItem', deleted: false }]);

    expect(qc.getQueryState(['reader', db, 'unread'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(feed.queryKey)?.isInvalidated).toBe(false);
    expect(qc.getQueryState(['tickets', 'acc-2'])?.isInvalidated).toBe(false);
  });
});
