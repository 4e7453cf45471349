import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { feedQuery } from '../../features/reader/api/feed';
import type { LiveNotice } from '../../lib/live';
import { hearings, liveDoc, liveKlasses, ownWrite, refetchOwnWrite, showsChange } from '../../lib/live-deps';
import { historyQuery } from '../../lib/history';
import { limitsQuery, type Limits } from '../../lib/limits';
import { invalidateDb } from '../../features/live/components/LiveUpdates';

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

  it('leaves alone, on a notice, what already holds the revision it tells of; the rest still hears it', async () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    const build = (key: unknown[], meta: Record<string, unknown>, data: unknown) => {
      qc.getQueryCache().build(qc, { queryKey: key, meta });
      qc.setQueryData(key, data);
    };
    const rev = '2-0123456789abcdef0123456789abcdef';
    // The writer's own refetch brought the ticket and its history back with the new revision; the counter and
    // a list read from an index that had not caught up did not.
    build(['tickets', db, 'doc', 'tik-1'], liveDoc('tik-1'), { _id: 'tik-1', _rev: rev, status: 'doing' });
    build(['history', db, 'tik-1'], liveDoc('tik-1'), [{ _id: 'ver-1', klass: 'DocumentChange', item_id: 'tik-1', rev }]);
    build(['open-tickets', db], liveKlasses('Ticket'), 4);
    build(['tickets', db, 'list'], liveKlasses('Ticket'), { docs: [{ _id: 'tik-1', _rev: '1-0123456789abcdef0123456789abcdef' }] });
    const stale = (key: unknown[]) => qc.getQueryState(key)?.isInvalidated;

    invalidateDb(qc, db, 'usr-1', [{ db, seq: 20, id: 'tik-1', klass: 'Ticket', deleted: false, rev }]);
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(false);
    expect(stale(['history', db, 'tik-1'])).toBe(false);
    expect(stale(['open-tickets', db])).toBe(true);
    expect(stale(['tickets', db, 'list'])).toBe(true);

    // A later revision (a coworker's), or a notice without one (an older server): news.
    invalidateDb(qc, db, 'usr-1', [{ db, seq: 21, id: 'tik-1', klass: 'Ticket', deleted: false, rev: '3-0123456789abcdef0123456789abcdef' }]);
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(true);
    expect(stale(['history', db, 'tik-1'])).toBe(true);
    qc.setQueryData(['tickets', db, 'doc', 'tik-1'], { _id: 'tik-1', _rev: rev });
    invalidateDb(qc, db, 'usr-1', [{ db, seq: 22, id: 'tik-1', klass: 'Ticket', deleted: false }]);
    expect(stale(['tickets', db, 'doc', 'tik-1'])).toBe(true);
  });

  it("a write's own refetch names what shows the written document", async () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    for (const [key, meta] of [
      [['tickets', db, 'doc', 'tik-1'], liveDoc('tik-1')],
      [['tickets', db, 'doc', 'tik-2'], liveDoc('tik-2')],
      [['comments', db, 'tik-1'], liveKlasses('Comment')],
    ] as const) {
      qc.getQueryCache().build(qc, { queryKey: [...key], meta });
      qc.setQueryData([...key], {});
    }
    await refetchOwnWrite(qc, ownWrite(db, 'tik-1', 'Ticket', false, '2-x'), [['tickets', db]]);
    expect(qc.getQueryState(['tickets', db, 'doc', 'tik-1'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['tickets', db, 'doc', 'tik-2'])?.isInvalidated).toBe(false);
    expect(qc.getQueryState(['comments', db, 'tik-1'])?.isInvalidated).toBe(false);
  });

  it("a save's answer stands in for the refetch of the queries reading that document alone", async () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    const keys = { doc: ['tickets', db, 'doc', 'tik-1'], label: ['record-label', db, 'tik-1', 'title'], other: ['tickets', db, 'doc', 'tik-2'], list: ['tickets', db, 'list'] };
    const metas = { doc: liveDoc('tik-1'), label: liveDoc('tik-1'), other: liveDoc('tik-2'), list: liveKlasses('Ticket') };
    for (const [k, key] of Object.entries(keys)) {
      qc.getQueryCache().build(qc, { queryKey: key, meta: metas[k as keyof typeof keys] });
      qc.setQueryData(key, { _id: 'old' });
    }
    const saved = { _id: 'tik-1', _rev: '2-x', klass: 'Ticket', number: 7, status: 'doing' };
    await refetchOwnWrite(qc, ownWrite(db, 'tik-1', 'Ticket', false, '2-x'), [['tickets', db], ['record-label', db]], saved);
    expect(qc.getQueryData(keys.doc)).toEqual(saved);
    expect(qc.getQueryData(keys.label)).toEqual(saved);
    expect(qc.getQueryState(keys.doc)?.isInvalidated).toBe(false);
    expect(qc.getQueryState(keys.list)?.isInvalidated).toBe(true); // a list showing it still reads again
    expect(qc.getQueryData(keys.other)).toEqual({ _id: 'old' });

    // An answer about another document (or none) sets nothing.
    await refetchOwnWrite(qc, ownWrite(db, 'tik-2', 'Ticket', false, '2-y'), [['tickets', db]], saved);
    expect(qc.getQueryData(keys.other)).toEqual({ _id: 'old' });
    expect(qc.getQueryState(keys.other)?.isInvalidated).toBe(true);
  });

  it("a tab that hears the db leaves to the write's notice what the stream derives and what says nothing of what it shows", async () => {
    const qc = new QueryClient();
    const db = 'acc-1';
    const keys = {
      doc: ['tickets', db, 'doc', 'tik-1'],
      history: ['history', db, 'tik-1'],
      counter: ['open-tickets', db],
      limits: ['limits', db],
      view: ['views', db, 'count-by-klass'],
    };
    const metas = { doc: liveDoc('tik-1'), history: historyQuery(db, 'tik-1').meta, counter: { live: { klasses: ['Ticket'], derived: true } }, limits: limitsQuery(db).meta, view: undefined };
    for (const [k, key] of Object.entries(keys)) {
      qc.getQueryCache().build(qc, { queryKey: key, ...(metas[k as keyof typeof keys] ? { meta: metas[k as keyof typeof keys] } : {}) });
      qc.setQueryData(key, k === 'limits' ? { plan: 'free', records: 10, record_limit: 1000 } : {});
    }
    const refetched = () => Object.entries(keys).filter(([, key]) => qc.getQueryState(key)?.isInvalidated).map(([k]) => k);

    hearings.set(qc, (d) => d === db);
    await refetchOwnWrite(qc, ownWrite(db, 'tik-1', 'Ticket', false, '1-x'));
    expect(refetched()).toEqual(['doc']);

    // Not hearing (the socket is down, or a token sign-in): everything that may show it, now.
    hearings.delete(qc);
    await refetchOwnWrite(qc, ownWrite(db, 'tik-1', 'Ticket', false, '1-x'));
    expect(refetched()).toEqual(['doc', 'history', 'counter', 'limits', 'view']);
  });

  it("refetches a Group's limits on a plan change, and on creates and deletes only while they can move its banners", () => {
    const db = 'acc-1';
    const limits = (over: Partial<Limits>): Limits => ({
      plan: 'free', records: 100, record_limit: 1000, over_since: null, view_only_at: null, view_only: false, bytes: 0, drive_bytes: 0, drive_limit: 0, ...over,
    });
    const deps = limitsQuery(db).meta?.live;
    const update = { db, seq: 1, id: 'tik-1', klass: 'Ticket', deleted: false, rev: '2-x' };
    const create = { ...update, rev: '1-x' };
    const removal = { ...update, rev: '3-x', deleted: true };
    const plan = { ...update, id: 'adj-1', klass: 'Adjustment' };
    const free = limits({});
    const paid = limits({ plan: 'pro', record_limit: 0, records: 5000 });
    const over = limits({ records: 1001, over_since: '2026-11-20T00:00:00Z' });
    expect(showsChange(deps, [update], free)).toBe(false);
    expect(showsChange(deps, [create], free)).toBe(true);
    expect(showsChange(deps, [removal], free)).toBe(true);
    expect(showsChange(deps, [{ ...update, rev: undefined }], free)).toBe(true); // an older server: maybe a create
    expect(showsChange(deps, [create, removal], paid)).toBe(false);
    expect(showsChange(deps, [plan], paid)).toBe(true);
    expect(showsChange(deps, [update], over)).toBe(true);
    expect(showsChange(deps, [update], undefined)).toBe(true);
  });
});
