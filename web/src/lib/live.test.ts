import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoff, BLOCKED_AFTER, HIDDEN_CLOSE_MS, KEEPALIVE_MS, LiveChannel, liveUrl, POLL_MS, RETRY_SOCKET_MS, type LiveNotice, type LiveOptions, type LiveStatus } from './live';

/** FakeSocket stands in for the browser's WebSocket: the test opens, feeds and closes it. */
class FakeSocket {
  sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {}
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close(code: number) {
    this.closedWith = code;
  }
  open() {
    this.onopen?.();
  }
  receive(m: unknown) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop(code = 1006, reason = '') {
    this.onclose?.({ code, reason });
  }
}

function setup(over: Partial<LiveOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const changed: Array<[string, LiveNotice[] | null]> = [];
  const refused: Array<[string, string]> = [];
  const statuses: LiveStatus[] = [];
  type Changes = LiveOptions['changes'];
  const changes = vi.fn<Changes>(over.changes ?? (async () => ({ rows: 0, lastSeq: 7 })));
  let visible = true;
  const ch = new LiveChannel({
    url: () => 'ws://app.test/api/_live?xsrf=x',
    onChange: (db, n) => changed.push([db, n]),
    onRefused: (db, r) => refused.push([db, r]),
    onStatus: (s) => statuses.push(s),
    visible: () => visible,
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    random: () => 0.5,
    ...over,
    changes,
  });
  return { ch, sockets, changed, refused, statuses, changes, setVisible: (v: boolean) => (visible = v), last: () => sockets[sockets.length - 1]! };
}

const notice = (db: string, seq: number, id = 'tck-1'): LiveNotice => ({ db, seq, id, klass: 'Ticket', deleted: false });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('LiveChannel', () => {
  it('subscribes to the followed dbs on open and hands notices on', () => {
    const t = setup();
    t.ch.follow(['acc-1', 'usr-1']);
    expect(t.ch.currentStatus).toBe('connecting');
    t.last().open();
    expect(t.last().sent).toEqual([{ subscribe: ['acc-1', 'usr-1'] }]);
    t.last().receive({ subscribed: 'acc-1', seq: 4 });
    t.last().receive({ subscribed: 'usr-1', seq: 9 });
    expect(t.ch.currentStatus).toBe('live');
    t.last().receive(notice('acc-1', 5));
    t.last().receive(notice('acc-9', 6)); // not followed: ignored
    expect(t.changed).toEqual([['acc-1', [notice('acc-1', 5)]]]);
    expect(t.changes).not.toHaveBeenCalled(); // a first subscription needs no catch-up
  });

  it('switches Groups on the open socket', () => {
    const t = setup();
    t.ch.follow(['acc-1', 'usr-1']);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 1 });
    t.ch.follow(['acc-2', 'usr-1']);
    expect(t.last().sent.slice(1)).toEqual([{ unsubscribe: ['acc-1'] }, { subscribe: ['acc-2'] }]);
    expect(t.sockets).toHaveLength(1);
  });

  it('reconnects with back-off and catches up with _changes?since=<last seq>', async () => {
    const t = setup({ changes: vi.fn(async () => ({ rows: 2, lastSeq: 12 })) });
    t.ch.follow(['acc-1']);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 3 });
    t.last().receive(notice('acc-1', 5));
    t.last().drop(1006);
    expect(t.ch.currentStatus).toBe('connecting');
    vi.advanceTimersByTime(999);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 12 });
    await vi.runAllTicks();
    await Promise.resolve();
    expect(t.changes).toHaveBeenCalledWith('acc-1', 5);
    expect(t.changed.at(-1)).toEqual(['acc-1', null]);
    // Nothing new since: no request.
    t.last().drop(1001);
    vi.advanceTimersByTime(2_000);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 12 });
    expect(t.changes).toHaveBeenCalledTimes(1);
  });

  it('says since when it hears every change of a db: from its first subscription, over reconnects that catch up', () => {
    const t = setup();
    vi.setSystemTime(1_000);
    t.ch.follow(['acc-1', 'usr-1']);
    expect(t.ch.hearingSince('acc-1')).toBeNull(); // not open yet
    t.last().open();
    expect(t.ch.hearingSince('acc-1')).toBeNull(); // asked, not yet subscribed
    vi.setSystemTime(2_000);
    t.last().receive({ subscribed: 'acc-1', seq: 3 });
    expect(t.ch.hearingSince('acc-1')).toBe(2_000);
    expect(t.ch.hearingSince('usr-1')).toBeNull();
    t.last().receive({ refused: 'usr-1', reason: 'no' });
    expect(t.ch.hearingSince('usr-1')).toBeNull();
    t.last().drop(1006);
    expect(t.ch.hearingSince('acc-1')).toBeNull(); // deaf while reconnecting
    vi.advanceTimersByTime(1_000);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 3 });
    expect(t.ch.hearingSince('acc-1')).toBe(2_000); // the catch-up covers the gap
    t.ch.follow(['acc-2']);
    t.last().receive({ subscribed: 'acc-2', seq: 1 });
    expect(t.ch.hearingSince('acc-1')).toBeNull();
    expect(t.ch.hearingSince('acc-2')).toBe(Date.now());
    t.ch.stop();
    expect(t.ch.hearingSince('acc-2')).toBeNull();
  });

  it('closes a hidden tab\'s socket after HIDDEN_CLOSE_MS and reopens it, caught up, when visible', async () => {
    const t = setup({ changes: vi.fn(async () => ({ rows: 1, lastSeq: 9 })) });
    t.ch.follow(['acc-1', 'usr-1']);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 3 });
    t.last().receive({ subscribed: 'usr-1', seq: 2 });
    t.last().receive(notice('acc-1', 5));
    t.setVisible(false);
    t.ch.visibilityChanged();
    vi.advanceTimersByTime(HIDDEN_CLOSE_MS - 1);
    expect(t.last().closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(t.last().closedWith).toBe(1000);
    expect(t.ch.currentStatus).toBe('paused');
    const sent = t.last().sent.length;
    vi.advanceTimersByTime(12 * 60 * 60_000); // a night: no keep-alive, no reconnect
    expect(t.sockets).toHaveLength(1);
    expect(t.last().sent).toHaveLength(sent);
    t.setVisible(true);
    t.ch.visibilityChanged();
    expect(t.sockets).toHaveLength(2);
    t.last().open();
    expect(t.last().sent).toEqual([{ subscribe: ['acc-1', 'usr-1'] }]);
    t.last().receive({ subscribed: 'acc-1', seq: 9 });
    t.last().receive({ subscribed: 'usr-1', seq: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.changes).toHaveBeenCalledTimes(1);
    expect(t.changes).toHaveBeenCalledWith('acc-1', 5);
    expect(t.changed.at(-1)).toEqual(['acc-1', null]);
    expect(t.ch.currentStatus).toBe('live');
  });

  it('keeps the socket of a tab hidden for less than HIDDEN_CLOSE_MS, and of one opened hidden until its time', () => {
    const t = setup();
    t.ch.follow(['acc-1']);
    t.last().open();
    t.setVisible(false);
    t.ch.visibilityChanged();
    vi.advanceTimersByTime(HIDDEN_CLOSE_MS - 60_000);
    t.setVisible(true);
    t.ch.visibilityChanged();
    vi.advanceTimersByTime(HIDDEN_CLOSE_MS * 3);
    expect(t.sockets).toHaveLength(1);
    expect(t.last().closedWith).toBeNull();

    const bg = setup();
    bg.setVisible(false);
    bg.ch.follow(['acc-1']);
    bg.last().open();
    vi.advanceTimersByTime(HIDDEN_CLOSE_MS);
    expect(bg.last().closedWith).toBe(1000);
    expect(bg.ch.currentStatus).toBe('paused');
  });

  it('falls back to polling _changes every 15 s while visible when the socket never opens', async () => {
    const t = setup({ changes: vi.fn(async () => ({ rows: 1, lastSeq: 20 })) });
    t.ch.follow(['acc-1']);
    for (let i = 0; i < BLOCKED_AFTER; i++) {
      t.last().drop(1006);
      if (i < BLOCKED_AFTER - 1) vi.advanceTimersByTime(60_000);
    }
    expect(t.ch.currentStatus).toBe('polling');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.changes).toHaveBeenLastCalledWith('acc-1', 'now'); // the baseline
    expect(t.changed).toEqual([]);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(t.changes).toHaveBeenLastCalledWith('acc-1', 20);
    expect(t.changed).toEqual([['acc-1', null]]);
    // Hidden: no requests; visible again: one at once.
    t.setVisible(false);
    const n = t.changes.mock.calls.length;
    await vi.advanceTimersByTimeAsync(POLL_MS * 4);
    expect(t.changes.mock.calls.length).toBe(n);
    t.setVisible(true);
    t.ch.visibilityChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.changes.mock.calls.length).toBe(n + 1);
  });

  it('backs off the polls on errors and tries the socket again now and then', async () => {
    const changes = vi.fn(async () => {
      throw new Error('offline');
    });
    const t = setup({ url: () => null, changes });
    t.ch.follow(['acc-1']);
    expect(t.ch.currentStatus).toBe('polling');
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(changes).toHaveBeenCalledTimes(1); // waits 2 × 15 s now
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(t.sockets).toHaveLength(0); // a token session never opens one
  });

  it('leaves polling once a retried socket opens', async () => {
    const t = setup();
    t.ch.follow(['acc-1']);
    for (let i = 0; i < BLOCKED_AFTER; i++) {
      t.last().drop(1006);
      vi.advanceTimersByTime(60_000);
    }
    expect(t.ch.currentStatus).toBe('polling');
    const before = t.sockets.length;
    await vi.advanceTimersByTimeAsync(RETRY_SOCKET_MS);
    expect(t.sockets.length).toBe(before + 1);
    t.last().open();
    t.last().receive({ subscribed: 'acc-1', seq: 30 });
    expect(t.ch.currentStatus).toBe('live');
  });

  it('reports refusals, keeps them out of later subscriptions until roles change, and retries slowly after an ended session', () => {
    const t = setup();
    t.ch.follow(['acc-1', 'usr-1']);
    t.last().open();
    t.last().receive({ subscribed: 'usr-1', seq: 1 });
    t.last().receive({ refused: 'acc-1', reason: 'You are not allowed to access this data.' });
    expect(t.refused).toEqual([['acc-1', 'You are not allowed to access this data.']]);
    expect(t.ch.currentStatus).toBe('refused');
    t.last().drop(1001);
    vi.advanceTimersByTime(2_000);
    t.last().open();
    expect(t.last().sent).toEqual([{ subscribe: ['usr-1'] }]);
    // Roles changed (the user was added again): the refused Group is asked for once more.
    t.ch.retryRefused();
    expect(t.last().sent.at(-1)).toEqual({ subscribe: ['acc-1'] });
    // The session ended: a slower retry, which finds the next session.
    t.last().drop(1008, 'Your session has ended');
    expect(t.ch.currentStatus).toBe('connecting');
    vi.advanceTimersByTime(3_000);
    expect(t.sockets).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    expect(t.sockets).toHaveLength(3);
  });

  it('sends its own keep-alive and closes on stop', () => {
    const t = setup();
    t.ch.follow(['acc-1']);
    t.last().open();
    vi.advanceTimersByTime(KEEPALIVE_MS);
    expect(t.last().sent.at(-1)).toEqual({ ping: 1 });
    t.ch.follow([]);
    expect(t.last().closedWith).toBe(1000);
    expect(t.ch.currentStatus).toBe('off');
  });
});

describe('backoff and URL', () => {
  it('doubles from the minimum up to the maximum, with jitter', () => {
    expect(backoff(0, 1000, 30_000, () => 0.5)).toBe(1000);
    expect(backoff(3, 1000, 30_000, () => 0.5)).toBe(8000);
    expect(backoff(30, 1000, 30_000, () => 1)).toBe(36_000);
    expect(backoff(30, 1000, 30_000, () => 0)).toBe(24_000);
  });

  it('builds the WebSocket URL with the XSRF token, or none without one', () => {
    document.cookie = 'XSRF-TOKEN=a%2Fb; path=/';
    expect(liveUrl({ protocol: 'https:', host: 'app.example' })).toBe('wss://app.example/api/_live?xsrf=a%2Fb');
    expect(liveUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/_live?xsrf=a%2Fb');
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    expect(liveUrl({ protocol: 'https:', host: 'app.example' })).toBeNull();
  });
});
