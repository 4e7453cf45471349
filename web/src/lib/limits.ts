// A Group's plan limits as the server reports them (GET /api/{db}/_limits,
// issue 15): records against the free plan's 1,000, when it went over, when
// it becomes (or became) view-only, and the storage it holds. Read by the
// shell's limits banner and by the billing screens.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from './api';
import type { LiveNotice } from './live';

export interface Limits {
  plan: string;
  records: number;
  /** 0 = unlimited (paid plans). */
  record_limit: number;
  over_since: string | null;
  view_only_at: string | null;
  view_only: boolean;
  /** Documents' size in bytes (base 1000 when shown). */
  bytes: number;
  drive_bytes: number;
  drive_limit: number;
}

/** Whether a notice may tell of a record created or deleted (servers before 2026-11-29 sent no revision). */
const countsChange = (n: { rev?: string; deleted: boolean }) => n.deleted || !n.rev || n.rev.startsWith('1-');

/**
 * movesLimits says whether changes may change what l shows: with a record limit (the free plan), a record
 * created or deleted; over it, any change (an update may be what a member tries while it counts down). With
 * no limit (paid plans), only a plan change, which comes as an adjustment.
 */
export function movesLimits(l: Limits | undefined, notices: readonly { rev?: string; deleted: boolean }[]): boolean {
  if (!l || l.view_only || l.over_since) return true;
  return l.record_limit > 0 && notices.some(countsChange);
}

export const limitsQuery = (db: string) =>
  queryOptions({
    queryKey: ['limits', db],
    queryFn: () => api.get<Limits>(`${enc(db)}/_limits`),
    staleTime: 60_000,
    retry: false,
    // The plan is an adjustment; creates and deletes move a free Group's count. Written out (LiveDeps), as the
    // first route's modules stay off lib/live-deps (npm run size).
    meta: {
      live: { klasses: ['Adjustment'], anyWhen: (data: unknown, notices: readonly LiveNotice[]) => movesLimits(data as Limits | undefined, notices), derived: true },
    },
  });

const DAY = 24 * 60 * 60 * 1000;

/**
 * daysLeft counts the whole days from now until when (0 once it has
 * passed, null for a missing or unreadable date). Below 2 the screens use
 * the singular message (SPEC §9: "fewer than 2 days").
 */
export function daysLeft(when: string | null | undefined, now: Date = new Date()): number | null {
  if (!when) return null;
  const t = new Date(when).getTime();
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.floor((t - now.getTime()) / DAY));
}
