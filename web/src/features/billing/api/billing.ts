// The billing routes of issue 15 (see /work/billing-contract.md, shared/billing):
// the Group's billing state, its billing email, checkout sessions, the
// test-only completion, and the free/cancel plan changes.

import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import { saveAdjustment } from '../../../lib/account-config';

export type PlanName = 'free' | 'pro' | 'corp' | 'server';

export interface NextInvoice {
  /** In cents. */
  amount: number;
  currency: string;
  date: string;
}

export interface Billing {
  plan: string;
  unconfirmed_plan?: string;
  livemode: boolean;
  billing_email: string;
  customer_id?: string;
  price_id?: string;
  next_invoice: NextInvoice | null;
  switch_locked_until: string | null;
  can_cancel: boolean;
  is_admin: boolean;
  publishable_key?: string;
  /** The server's test-only "complete this checkout" route is on (e2e, never in the cloud). */
  test_complete?: boolean;
  /** The free plan's record limit on this server (SPEC §9: 1,000). */
  free_record_limit?: number;
}

export interface CheckoutSession {
  session_id: string;
  client_secret: string;
  publishable_key: string;
  test_complete?: boolean;
}

export const billingQuery = (db: string) =>
  queryOptions({
    queryKey: ['billing', db],
    queryFn: () => api.get<Billing>(`${enc(db)}/_billing`),
    staleTime: 30_000,
    retry: false,
  });

export function saveBillingEmail(db: string, email: string): Promise<{ billing_email: string }> {
  return api.put(`${enc(db)}/_billing/email`, { email });
}

/** startCheckout: the server sends locale (pt-BR as pt) and theme to Stripe as userLocale and userTheme (SPEC §7). */
export function startCheckout(db: string, priceId: string, locale: string, theme: string): Promise<CheckoutSession> {
  return api.post(`${enc(db)}/_billing/checkout`, { price_id: priceId, locale, theme });
}

/** completeTestCheckout is the e2e stand-in for stripe.com's frame (test-only route). */
export function completeTestCheckout(db: string, sessionId: string): Promise<unknown> {
  return api.post(`${enc(db)}/_billing/checkout/${enc(sessionId)}/complete`, {});
}

export type PlanChange = 'free' | 'cancel';

/**
 * changePlan (SPEC §4, §7): first the unconfirmed-plan adjustment (free or
 * cancel, as the server also records it), then the subscription update
 * handler.
 */
export async function changePlan(db: string, change: PlanChange): Promise<unknown> {
  await saveAdjustment(db, 'unconfirmed-plan', change);
  return api.put(`${enc(db)}/_design/subscription/_update/${change}/${enc(db)}`, {});
}

/** afterPlanChange reloads what shows a Group's plan. */
export async function afterPlanChange(qc: QueryClient, db: string): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: ['billing', db] }),
    qc.invalidateQueries({ queryKey: ['limits', db] }),
    qc.invalidateQueries({ queryKey: ['account-config', db] }),
    qc.invalidateQueries({ queryKey: ['account', db] }),
    qc.invalidateQueries({ queryKey: ['memberships'] }),
  ]);
}
