import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { feedQuery } from '../../features/reader/api/feed';
import type { LiveNotice } from '../../lib/live';
import { liveDoc, liveKlasses, ownWrite, showsChange } from '../../lib/live-deps';
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

  it('leaves alone a query that reads other documents or lists other klasses than the notices tell of', () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    const build = (key: unknown[], meta?: Record<string, unknown>) => {
      qc.getQueryCache().build(qc, { queryKey: key, ...(meta ? { meta } : {}) });
      qc.setQueryData(key, {});
    };
    build(['tickets', db, 'doc', 'tik-1'], liveDoc('tik-1'));
    build(['tickets', db, 'doc', 'tik-2'], liveDoc('tik-2'));
    build(['comments', db, 'tik-1'], liveKlasses('Comment'));
    build(['open-tickets', db], liveKlasses('Ticket'));
    build(['limits', db]);
    const comment: LiveNotice = { db, seq: 10, id: 'cmt-1', klass: 'Comment', deleted: false };
    invalidateDb(qc, db, 'usr-1', [comment]);
    const stale = (key: unknown[]) => qc.getQueryState(key)?.isInvalidated;
    expect(stale(['comments', db, 'tik-1'])).toBe(true);
    expect(stale(['limits', db])).toBe(true); // says nothing: any change
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(false);
    expect(stale(['open-tickets', db])).toBe(false);

    invalidateDb(qc, db, 'usr-1', [{ db, seq: 11, id: 'tik-2', klass: 'Ticket', deleted: false }]);
    expect(stale(['tickets', db, 'doc', 'tik-2'])).toBe(true);
    expect(stale(['open-tickets', db])).toBe(true);
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(false);

    // A catch-up knows only that something changed: everything is refetched.
    invalidateDb(qc, db, 'usr-1', null);
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(true);
  });

  it("a write's own refetch names the written document: its GET and its klass's lists, not the rest", () => {
    const moved = [ownWrite('acc-1', 'tik-1', 'Ticket')];
    expect(showsChange(liveDoc('tik-1').live, moved)).toBe(true);
    expect(showsChange(liveKlasses('Ticket').live, moved)).toBe(true);
    expect(showsChange(liveDoc('tik-2').live, moved)).toBe(false);
    expect(showsChange(liveKlasses('Membership').live, moved)).toBe(false);
    expect(showsChange(undefined, moved)).toBe(true);
    expect(showsChange(false, moved)).toBe(false);
  });
});
