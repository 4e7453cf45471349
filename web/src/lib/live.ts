// The live-updates channel (issue 25): one WebSocket per tab at /api/_live,
// subscribed to the current Group and the user's own db. The server says
// which document changed (never its body); the app refetches what shows it.
// When the socket cannot open (a proxy that blocks WebSockets, an API token
// in place of the cookie session), the tab polls _changes every 15 s while
// it is visible instead, backing off on errors.

import { API_BASE } from './api';
import { readCookie } from './cookies';

export type LiveStatus = 'connecting' | 'live' | 'polling' | 'refused' | 'paused' | 'off';

/** A change the server tells of: which document, at which _changes seq. */
export interface LiveNotice {
  db: string;
  seq: number;
  id: string;
  klass: string;
  deleted: boolean;
  /** The revision written (servers before 2026-11-29 sent none). */
  rev?: string;
}

export const LIVE_PATH = `${API_BASE}/_live`;
/** The fallback's polling interval while the tab is visible. */
export const POLL_MS = 15_000;
/** The longest wait between polls after errors, and between reconnects. */
export const POLL_MAX_MS = 5 * 60_000;
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
/** Failed opens in a row (the socket never opened) before falling back to polling. */
export const BLOCKED_AFTER = 3;
/** While polling, how often the socket is tried again. */
export const RETRY_SOCKET_MS = 2 * 60_000;
/**
 * The client's own keep-alive: API Gateway closes a connection silent for 10 minutes (the local server pings
 * every 30 s by itself). Eight minutes leaves room for a hidden tab's timers, which browsers delay by up to a
 * minute, and costs one message per 8 minutes in the cloud (it is not answered there; locally it gets a pong).
 */
export const KEEPALIVE_MS = 8 * 60_000;
/**
 * A tab hidden this long closes its socket ('paused'): in the cloud a connection is billed by the minute and
 * its keep-alives by the message and the invocation, and a tab left open overnight would pay them all night.
 * Visible again, it reconnects and catches up with _changes?since=<last seq>, as after a dropped socket.
 */
export const HIDDEN_CLOSE_MS = 5 * 60_000;

/** A server's close code for "stop": the session ended (policy). */
const CLOSE_POLICY = 1008;

export interface LiveOptions {
  /** The WebSocket URL, or null when the tab cannot open one (token sign-in). */
  url: () => string | null;
  /** Reads _changes?since=: how many rows, and the feed's last seq. */
  changes: (db: string, since: number | 'now') => Promise<{ rows: number; lastSeq: number }>;
  /** Something changed in db: the notices heard, or null after a catch-up found rows. */
  onChange: (db: string, notices: LiveNotice[] | null) => void;
  onRefused?: (db: string, reason: string) => void;
  onStatus?: (status: LiveStatus) => void;
  /** Whether the tab is visible (polls pause while it is not). */
  visible?: () => boolean;
  socket?: (url: string) => WebSocket;
  random?: () => number;
}

/** backoff is the wait before attempt n (0-based): doubling from min to max, ±20 % jitter. */
export function backoff(n: number, min: number, max: number, random: () => number = Math.random): number {
  const base = Math.min(max, min * 2 ** Math.min(n, 20));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** liveUrl is /api/_live on this origin, with the XSRF token browsers cannot send as a header. */
export function liveUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string | null {
  const xsrf = readCookie('XSRF-TOKEN');
  if (!xsrf) return null;
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}${LIVE_PATH}?xsrf=${encodeURIComponent(xsrf)}`;
}

export class LiveChannel {
  private readonly o: Required<Omit<LiveOptions, 'onRefused' | 'onStatus'>> & Pick<LiveOptions, 'onRefused' | 'onStatus'>;
  private wanted = new Set<string>();
  private subscribed = new Set<string>();
  private refusedDbs = new Set<string>();
  private lastSeq = new Map<string, number>();
  /** When the channel began hearing each db without a gap: its first subscription, kept over reconnects that catch up. */
  private since = new Map<string, number>();
  private ws: WebSocket | null = null;
  private opened = false;
  private failures = 0;
  private polling = false;
  private pollFailures = 0;
  private status: LiveStatus = 'off';
  private stopped = true;
  private timers = { reconnect: 0, poll: 0, keepalive: 0, retrySocket: 0, rest: 0 };
  /** The socket was closed because the tab stayed hidden (HIDDEN_CLOSE_MS); visible again, it reconnects. */
  private resting = false;
  private pings = 0;

  constructor(opts: LiveOptions) {
    this.o = {
      visible: () => typeof document === 'undefined' || document.visibilityState === 'visible',
      socket: (url) => new WebSocket(url),
      random: Math.random,
      ...opts,
    };
  }

  get currentStatus(): LiveStatus {
    return this.status;
  }

  /**
   * hearingSince is the time (Date.now()) since which this tab has heard of every change of db: anything read
   * after it stays true until a notice says otherwise. Null while the socket does not carry db's notices.
   */
  hearingSince(db: string): number | null {
    if (!this.ws || !this.opened || !this.subscribed.has(db)) return null;
    return this.since.get(db) ?? null;
  }

  /** follow sets the databases to follow: the current Group and the user's db. */
  follow(dbs: string[]): void {
    const next = new Set(dbs.filter(Boolean));
    const added = [...next].filter((d) => !this.wanted.has(d));
    const removed = [...this.wanted].filter((d) => !next.has(d));
    this.wanted = next;
    for (const d of removed) {
      this.refusedDbs.delete(d);
      this.lastSeq.delete(d);
      this.since.delete(d);
    }
    if (next.size === 0) {
      this.stop();
      return;
    }
    if (this.stopped) {
      this.stopped = false;
      this.connect();
      return;
    }
    if (this.ws && this.opened) {
      const gone = removed.filter((d) => this.subscribed.has(d));
      gone.forEach((d) => this.subscribed.delete(d));
      if (gone.length) this.sendJSON({ unsubscribe: gone });
      if (added.length) this.sendJSON({ subscribe: added });
    }
    this.updateStatus();
  }

  /** stop closes the socket and every timer. */
  stop(): void {
    this.stopped = true;
    this.resting = false;
    this.clearTimers();
    this.polling = false;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      ws.close(1000);
    }
    this.subscribed.clear();
    this.setStatus('off');
  }

  /** retryRefused asks again for the refused dbs (the user's roles changed: a Group may be theirs again). */
  retryRefused(): void {
    const again = [...this.refusedDbs].filter((d) => this.wanted.has(d));
    if (!again.length) return;
    // On an open socket they stay refused until the answer says otherwise (no flicker); otherwise the
    // next connection asks for them.
    if (this.ws && this.opened) this.sendJSON({ subscribe: again });
    else this.refusedDbs.clear();
  }

  /**
   * visibilityChanged polls at once when a polling tab becomes visible again; a hidden tab's socket closes after
   * HIDDEN_CLOSE_MS, and reopens when the tab is visible again.
   */
  visibilityChanged(): void {
    if (!this.o.visible()) {
      this.armRest();
      return;
    }
    window.clearTimeout(this.timers.rest);
    if (this.resting) {
      this.resting = false;
      this.connect();
      return;
    }
    if (this.polling) {
      window.clearTimeout(this.timers.poll);
      void this.poll();
    }
  }

  /** armRest starts the hidden tab's countdown to closing its socket (polls already pause while hidden). */
  private armRest(): void {
    window.clearTimeout(this.timers.rest);
    if (this.stopped || this.polling || this.resting) return;
    this.timers.rest = window.setTimeout(() => this.rest(), HIDDEN_CLOSE_MS);
  }

  /** rest closes the socket of a tab still hidden, and any reconnect pending. */
  private rest(): void {
    if (this.stopped || this.polling || this.o.visible()) return;
    window.clearTimeout(this.timers.reconnect);
    window.clearTimeout(this.timers.keepalive);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      ws.close(1000);
    }
    this.opened = false;
    this.subscribed.clear();
    this.resting = true;
    this.setStatus('paused');
  }

  private clearTimers(): void {
    for (const k of Object.keys(this.timers) as (keyof typeof this.timers)[]) {
      window.clearTimeout(this.timers[k]);
      this.timers[k] = 0;
    }
  }

  private connect(): void {
    if (this.stopped || this.resting) return;
    const url = this.o.url();
    if (!url) {
      this.startPolling();
      return;
    }
    if (!this.polling) this.setStatus('connecting');
    let ws: WebSocket;
    try {
      ws = this.o.socket(url);
    } catch {
      this.failed();
      return;
    }
    this.ws = ws;
    this.opened = false;
    ws.onopen = () => {
      this.opened = true;
      this.failures = 0;
      this.subscribed.clear();
      const dbs = [...this.wanted].filter((d) => !this.refusedDbs.has(d));
      if (dbs.length) this.sendJSON({ subscribe: dbs });
      this.scheduleKeepalive();
      if (!this.o.visible()) this.armRest(); // opened in a background tab
    };
    ws.onmessage = (ev) => this.onMessage(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      window.clearTimeout(this.timers.keepalive);
      this.subscribed.clear();
      if (this.stopped) return;
      if (ev.code === CLOSE_POLICY && this.opened && ev.reason !== 'No subscription for 10 minutes') {
        // The session ended: the API's next call shows the sign-in, and a later attempt (after signing in
        // again) finds the new session; until then the upgrade is refused and the tab falls back to polls.
        this.failures = BLOCKED_AFTER - 1;
        this.scheduleReconnect();
        return;
      }
      if (this.opened && !this.polling) {
        // A working socket dropped: try again soon, then catch up.
        this.failures = 0;
        this.scheduleReconnect();
        return;
      }
      this.failed();
    };
    ws.onerror = () => undefined; // onclose follows
  }

  private failed(): void {
    this.failures++;
    if (this.failures >= BLOCKED_AFTER && !this.polling) this.startPolling();
    if (this.polling) {
      window.clearTimeout(this.timers.retrySocket);
      this.timers.retrySocket = window.setTimeout(() => this.connect(), RETRY_SOCKET_MS);
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    window.clearTimeout(this.timers.reconnect);
    this.setStatus('connecting');
    this.timers.reconnect = window.setTimeout(() => this.connect(), backoff(this.failures, RECONNECT_MIN_MS, RECONNECT_MAX_MS, this.o.random));
  }

  private scheduleKeepalive(): void {
    window.clearTimeout(this.timers.keepalive);
    this.timers.keepalive = window.setTimeout(() => {
      this.sendJSON({ ping: ++this.pings });
      this.scheduleKeepalive();
    }, KEEPALIVE_MS);
  }

  private sendJSON(v: unknown): void {
    if (this.ws && this.opened) this.ws.send(JSON.stringify(v));
  }

  private onMessage(data: unknown): void {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(String(data)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof m.subscribed === 'string') {
      this.onSubscribed(m.subscribed, Number(m.seq));
    } else if (typeof m.refused === 'string') {
      this.subscribed.delete(m.refused);
      if (this.wanted.has(m.refused)) this.refusedDbs.add(m.refused);
      this.o.onRefused?.(m.refused, String(m.reason ?? ''));
      this.updateStatus();
    } else if (typeof m.db === 'string' && typeof m.id === 'string') {
      const n = m as unknown as LiveNotice;
      if (!this.wanted.has(n.db)) return;
      this.lastSeq.set(n.db, Math.max(this.lastSeq.get(n.db) ?? 0, Number(n.seq) || 0));
      this.o.onChange(n.db, [n]);
    }
  }

  private onSubscribed(db: string, seq: number): void {
    if (!this.wanted.has(db)) return;
    this.subscribed.add(db);
    this.refusedDbs.delete(db);
    // A reconnect keeps the time: its catch-up below refetches whatever changed meanwhile.
    if (!this.since.has(db)) this.since.set(db, Date.now());
    const last = this.lastSeq.get(db);
    if (Number.isFinite(seq)) this.lastSeq.set(db, Math.max(last ?? 0, seq));
    if (this.polling) this.stopPolling();
    this.updateStatus();
    if (last !== undefined && Number.isFinite(seq) && seq > last) {
      // Changed while the tab was not listening: catch up from where it was.
      void this.o
        .changes(db, last)
        .then((r) => {
          if (r.rows > 0) this.o.onChange(db, null);
        })
        .catch(() => this.o.onChange(db, null));
    }
  }

  private startPolling(): void {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.pollFailures = 0;
    this.setStatus('polling');
    void this.poll();
  }

  private stopPolling(): void {
    this.polling = false;
    window.clearTimeout(this.timers.poll);
    window.clearTimeout(this.timers.retrySocket);
  }

  private async poll(): Promise<void> {
    if (!this.polling || this.stopped) return;
    if (this.o.visible()) {
      let ok = true;
      for (const db of this.wanted) {
        if (this.refusedDbs.has(db)) continue;
        const since = this.lastSeq.get(db);
        try {
          const r = await this.o.changes(db, since ?? 'now');
          if (since !== undefined && r.rows > 0) this.o.onChange(db, null);
          this.lastSeq.set(db, Math.max(since ?? 0, r.lastSeq));
        } catch {
          ok = false;
        }
      }
      this.pollFailures = ok ? 0 : this.pollFailures + 1;
    }
    if (!this.polling || this.stopped) return;
    // Hidden tabs wait for visibilityChanged; errors back off.
    const wait = this.pollFailures > 0 ? backoff(this.pollFailures, POLL_MS, POLL_MAX_MS, this.o.random) : POLL_MS;
    this.timers.poll = window.setTimeout(() => void this.poll(), wait);
  }

  private updateStatus(): void {
    if (this.stopped) return;
    if (this.resting) {
      this.setStatus('paused');
      return;
    }
    if (this.polling) {
      this.setStatus('polling');
      return;
    }
    const current = [...this.wanted];
    if (current.length > 0 && current.every((d) => this.refusedDbs.has(d))) this.setStatus('refused');
    else if (this.ws && this.opened) this.setStatus(current.some((d) => this.refusedDbs.has(d)) ? 'refused' : 'live');
    else this.setStatus('connecting');
  }

  private setStatus(s: LiveStatus): void {
    if (s === this.status) return;
    this.status = s;
    this.o.onStatus?.(s);
  }
}
