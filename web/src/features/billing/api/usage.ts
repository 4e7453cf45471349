// Daily usage snapshots (GET /api/{db}/_usage, kept by the limits.snapshot job).

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';

export interface KlassUsage {
  records: number;
  bytes: number;
}

export interface UsageDay {
  date: string;
  klasses: Record<string, KlassUsage>;
}

export interface UsageReport {
  days: UsageDay[];
}

export const USAGE_DAYS = 90;

export const usageQuery = (db: string, days = USAGE_DAYS) =>
  queryOptions({
    queryKey: ['usage', db, days],
    queryFn: () => api.get<UsageReport>(`${enc(db)}/_usage`, { days }),
    staleTime: 5 * 60_000,
    retry: false,
  });
