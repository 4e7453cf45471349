// Plan prices (PlanPrice in the public prices db, SPEC §3, §5, §7): the
// active list for the plan chooser, and the checkout's lookup by id.

import { queryOptions } from '@tanstack/react-query';
import { find, type Doc } from '../../../lib/couch';

export interface PlanPrice extends Doc {
  group_plan?: string;
  /** Cents, per unit_mb of storage a month (0 unit_mb: a fixed price). */
  unit_amount?: number;
  unit_mb?: number;
  livemode?: boolean;
  platform_price_id?: string;
  active?: boolean;
}

/** POST /prices/_find for the active prices (SPEC §7). */
export async function fetchActivePrices(): Promise<PlanPrice[]> {
  const res = await find<PlanPrice>('prices', { selector: { klass: 'PlanPrice', active: true }, limit: 50 });
  return res.docs ?? [];
}

export const activePricesQuery = queryOptions({
  queryKey: ['billing', 'prices'],
  queryFn: fetchActivePrices,
  staleTime: 10 * 60_000,
});

/** The checkout's lookup: the price by id (SPEC §7 "PlanPrice by id and livemode"). */
export async function lookupPrice(id: string): Promise<PlanPrice[]> {
  const res = await find<PlanPrice>('prices', { selector: { klass: 'PlanPrice', _id: id }, limit: 2 });
  return res.docs ?? [];
}

export const priceLookupQuery = (id: string) =>
  queryOptions({ queryKey: ['billing', 'price', id], queryFn: () => lookupPrice(id), staleTime: 10 * 60_000 });
