// The counter views an admin screen reads (SPEC §7): records per klass and
// tickets per priority (all, and open ones), group_level=1.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ViewResponse } from '../../../lib/couch';
import { liveKlasses } from '../../../lib/live-deps';

export type CounterView = 'count-by-klass' | 'count-by-open-ticket-priority' | 'count-by-ticket-priority';

export async function fetchGrouped(db: string, view: CounterView): Promise<Record<string, number>> {
  const res = await api.get<ViewResponse<unknown, number>>(`${enc(db)}/_design/${view}/_view/all`, { group_level: 1 });
  const out: Record<string, number> = {};
  for (const r of res?.rows ?? []) {
    const key = r.key === null || r.key === undefined ? '' : String(r.key);
    if (typeof r.value === 'number') out[key] = (out[key] ?? 0) + r.value;
  }
  return out;
}

export const groupedQuery = (db: string, view: CounterView) =>
  queryOptions({
    queryKey: ['view', db, view],
    queryFn: () => fetchGrouped(db, view),
    staleTime: 60_000,
    retry: false,
    // The ticket counters change with tickets alone; records per klass with anything.
    ...(view === 'count-by-klass' ? {} : { meta: liveKlasses('Ticket') }),
  });
