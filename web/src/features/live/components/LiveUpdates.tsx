// Live updates in the shell (issue 25): one channel per tab following the
// current Group and the user's db; each change refetches the queries that
// name that db (board cards, a ticket and its checklist and comments, the
// timeline, counters and badges, balances, unread counts…), coalesced over
// 100 ms, except those whose meta says they show other documents or klasses
// (lib/live-deps.ts LiveDeps: a document's GET, a klass's list or counter). A
// quiet indicator says when updates are not live.

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, enc } from '../../../lib/api';
import type { ChangesResponse } from '../../../lib/couch';
import { LiveChannel, liveUrl, type LiveNotice, type LiveStatus } from '../../../lib/live';
import { newsFor, showsChange } from '../../../lib/live-deps';
import { keepFresh } from '../../../lib/live-fresh';
import { SESSION_KEY } from '../../../lib/session';
import { KEYS, readStored } from '../../../lib/storage';

/** How long changes are gathered before the refetch. */
const COALESCE_MS = 100;
/** A reconnect this short shows nothing. */
const QUIET_MS = 3_000;

/**
 * invalidateDb refetches what shows the changes of db and does not hold their revisions yet (a write's own
 * tab refetched it already); a membership in the user's own db changes the session's Groups.
 */
export function invalidateDb(qc: QueryClient, db: string, userDb: string | null, notices: LiveNotice[] | null): void {
  void qc.invalidateQueries({
    predicate: (q) => {
      if (!q.queryKey.includes(db)) return false;
      const deps = q.meta?.live;
      // The cheap test first: only a query the notices concern has its data searched for their revisions.
      return showsChange(deps, notices, q.state.data) && showsChange(deps, newsFor(q.state.data, notices), q.state.data);
    },
  });
  if (db === userDb && (notices === null || notices.some((n) => n.klass === 'Membership'))) {
    void qc.invalidateQueries({ queryKey: SESSION_KEY });
  }
}

async function changesSince(db: string, since: number | 'now'): Promise<{ rows: number; lastSeq: number }> {
  const res = await api.get<ChangesResponse>(`${enc(db)}/_changes`, { since, limit: 100 });
  return { rows: res.results.length, lastSeq: Number(res.last_seq) || 0 };
}

/** useLiveUpdates runs the tab's channel and returns its status; roles (the session's) changing retries refused dbs. */
export function useLiveUpdates(userDb: string | null, groupDb: string | null, roles = ''): LiveStatus {
  const qc = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('off');
  const userDbRef = useRef(userDb);
  const channel = useMemo(() => {
    const pending = new Map<string, LiveNotice[] | null>();
    const flush = (db: string) => {
      const notices = pending.get(db) ?? null;
      pending.delete(db);
      invalidateDb(qc, db, userDbRef.current, notices);
    };
    return new LiveChannel({
      url: () => (readStored(KEYS.token) ? null : liveUrl()),
      changes: changesSince,
      onChange: (db, notices) => {
        if (pending.has(db)) {
          const before = pending.get(db) ?? null;
          pending.set(db, before && notices ? [...before, ...notices] : null);
          return;
        }
        pending.set(db, notices);
        window.setTimeout(() => flush(db), COALESCE_MS);
      },
      onStatus: setStatus,
    });
  }, [qc]);

  useEffect(() => {
    userDbRef.current = userDb;
    channel.follow(userDb ? [groupDb ?? '', userDb] : []);
  }, [channel, userDb, groupDb]);
  useEffect(() => channel.retryRefused(), [channel, roles]);
  useEffect(() => keepFresh(qc, channel), [qc, channel]);
  useEffect(() => {
    const onVisible = () => channel.visibilityChanged();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      channel.stop();
    };
  }, [channel]);
  return status;
}

/** LiveIndicator is quiet: nothing while live or briefly reconnecting. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<LiveStatus | null>(null);
  useEffect(() => {
    if (status === 'live' || status === 'off' || status === 'paused') {
      setShown(null);
      return;
    }
    if (status !== 'connecting') {
      setShown(status);
      return;
    }
    const h = window.setTimeout(() => setShown(status), QUIET_MS);
    return () => window.clearTimeout(h);
  }, [status]);
  const text = shown ? t(`live.${shown}`) : '';
  // Always in the page (empty while quiet), so tests can read the status.
  return (
    <span
      className={shown ? `live-indicator live-indicator--${shown}` : 'live-indicator'}
      role="status"
      title={text || undefined}
      data-testid="live-indicator"
      data-status={status}
    >
      {shown ? (
        <>
          <span className="live-indicator__dot" aria-hidden="true" />
          <span className="live-indicator__text">{text}</span>
        </>
      ) : null}
    </span>
  );
}

/** LiveUpdates follows the user's db and the current Group, and shows the indicator. */
export function LiveUpdates({ userDb, groupDb, roles }: { userDb: string | null; groupDb: string | null; roles: string[] }) {
  const status = useLiveUpdates(userDb, groupDb, roles.join(','));
  return <LiveIndicator status={status} />;
}
