// A Group's plan limits as the server reports them (GET /api/{db}/_limits,
// issue 15): records against the free plan's 1,000, when it went over, when
// it becomes (or became) view-only, and the storage it holds. Read by the
// shell's limits banner and by the billing screens.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from './api';

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

export const limitsQuery = (db: string) =>
  queryOptions({
    queryKey: ['limits', db],
    queryFn: () => api.get<Limits>(`${enc(db)}/_limits`),
    staleTime: 60_000,
    retry: false,
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
