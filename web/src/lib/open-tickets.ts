// The open-ticket counter (SPEC §7, §9; the navbar and the dashboard share it): the group_level=0 view's value,
// 0 on failure or when empty. It follows the live-updates channel (lib/live.ts: a change in the Group refetches
// it, or the channel's 15 s _changes poll where WebSockets are blocked) and the reload event; it no longer polls.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, enc } from './api';
import type { ViewResponse } from './couch';
import { onAppEvent } from './events';

/** Kept fresh by the live channel; a remount within this reuses the count. */
export const OPEN_TICKETS_STALE_MS = 180_000;

export async function fetchOpenTickets(db: string): Promise<number> {
  try {
    const res = await api.get<ViewResponse<unknown, number>>(
      `${enc(db)}/_design/count-by-open-ticket-priority/_view/all`,
      { group_level: 0 },
    );
    const v = res?.rows?.[0]?.value;
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  } catch {
    return 0;
  }
}

export function useOpenTickets(db: string | null, enabled: boolean): number {
  const q = useQuery({
    queryKey: ['open-tickets', db],
    queryFn: () => fetchOpenTickets(db ?? ''),
    enabled: enabled && !!db,
    staleTime: OPEN_TICKETS_STALE_MS,
    // The stream counts tickets: a ticket's notice comes once the count is in.
    // liveKlasses(…) written out: the first route's modules stay off lib/live-deps (npm run size).
    meta: { live: { klasses: ['Ticket'], derived: true } },
  });
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  return q.data ?? 0;
}
