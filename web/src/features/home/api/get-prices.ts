import { queryOptions } from '@tanstack/react-query';
import { find, type Doc } from '../../../lib/couch';

export interface PlanPrice extends Doc {
  group_plan?: string;
  unit_amount?: number;
  livemode?: boolean;
  platform_price_id?: string;
  active?: boolean;
}

/** POST /prices/_find for the active PlanPrice documents (SPEC §7), cheapest first. */
export async function fetchPrices(): Promise<PlanPrice[]> {
  const res = await find<PlanPrice>('prices', {
    selector: { klass: 'PlanPrice', active: true },
    limit: 50,
  });
  return [...(res.docs ?? [])].sort((a, b) => (a.unit_amount ?? 0) - (b.unit_amount ?? 0));
}

export const pricesQuery = queryOptions({
  queryKey: ['prices'],
  queryFn: fetchPrices,
  staleTime: 10 * 60_000,
});
