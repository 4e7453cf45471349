// The open-ticket counter (SPEC §7, §9; the navbar and the dashboard share it): the group_level=0 view's value,
// 0 on failure or when empty, polled every 180 s and on the reload event.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, enc } from './api';
import type { ViewResponse } from './couch';
import { onAppEvent } from './events';

export const OPEN_TICKETS_POLL_MS = 180_000;

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
    refetchInterval: OPEN_TICKETS_POLL_MS,
    staleTime: OPEN_TICKETS_POLL_MS,
  });
  const { refetch } = q;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);
  return q.data ?? 0;
}
