import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hears, liveDoc } from './live-deps';
import { KEPT_FRESH_MS, keepFresh } from './live-fresh';

beforeEach(() => vi.useFakeTimers({ now: 10_000 }));
afterEach(() => vi.useRealTimers());

/** observe reads key through an observer (as a screen would) and says whether it is stale now. */
async function read(qc: QueryClient, key: string[], meta?: Record<string, unknown>) {
  const o = new QueryObserver(qc, { queryKey: key, queryFn: async () => ({ at: Date.now() }), ...(meta ? { meta } : {}) });
  const stop = o.subscribe(() => undefined);
  await vi.advanceTimersByTimeAsync(0);
  return { stale: () => o.getCurrentResult().isStale, refetch: () => o.refetch(), stop };
}

describe('keepFresh', () => {
  it('keeps fresh what says what it shows and was read while the tab heard every change of its db', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    let since: number | null = null;
    const undo = keepFresh(qc, { hearingSince: (db) => (db === 'acc-1' ? since : null) });

    const early = await read(qc, ['tickets', 'acc-1', 'doc', 'tik-1'], liveDoc('tik-1')); // before hearing
    since = Date.now() + 1;
    await vi.advanceTimersByTimeAsync(5);
    expect(hears(qc, 'acc-1')).toBe(true);
    const kept = await read(qc, ['tickets', 'acc-1', 'doc', 'tik-2'], liveDoc('tik-2'));
    const undeclared = await read(qc, ['limits', 'acc-1']);
    const other = await read(qc, ['tickets', 'acc-2', 'doc', 'tik-3'], liveDoc('tik-3'));

    await vi.advanceTimersByTimeAsync(60_000);
    expect(kept.stale()).toBe(false);
    expect(early.stale()).toBe(true); // read before: it may have missed a change
    expect(undeclared.stale()).toBe(true);
    expect(other.stale()).toBe(true);

    // Not forever: a notice lost on the way leaves it stale at most KEPT_FRESH_MS (a screen opening it
    // again reads it).
    await vi.advanceTimersByTimeAsync(KEPT_FRESH_MS - 60_000 + 10);
    const query = qc.getQueryCache().find({ queryKey: ['tickets', 'acc-1', 'doc', 'tik-2'] })!;
    const staleTime = qc.getDefaultOptions().queries?.staleTime as (q: typeof query) => number;
    expect(staleTime(query)).toBe(KEPT_FRESH_MS);
    expect(query.isStaleByTime(staleTime(query))).toBe(true);
    await kept.refetch();
    expect(kept.stale()).toBe(false);

    // A notice names it: stale, refetched, fresh again.
    await qc.invalidateQueries({ queryKey: ['tickets', 'acc-1', 'doc', 'tik-2'] });
    expect(kept.stale()).toBe(false);

    // The socket drops: the usual time again.
    since = null;
    expect(hears(qc, 'acc-1')).toBe(false);
    expect(qc.getQueryCache().find({ queryKey: ['tickets', 'acc-1', 'doc', 'tik-2'] })?.isStaleByTime(30_000)).toBe(false);
    await vi.advanceTimersByTimeAsync(31_000);
    const again = await read(qc, ['tickets', 'acc-1', 'doc', 'tik-2'], liveDoc('tik-2'));
    expect(again.stale()).toBe(false); // refetched on mount, as stale

    undo();
    expect(hears(qc, 'acc-1')).toBe(false);
    expect(qc.getDefaultOptions().queries?.staleTime).toBe(30_000);
    for (const o of [early, kept, undeclared, other, again]) o.stop();
  });
});
