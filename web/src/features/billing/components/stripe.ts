// The embedded Stripe Checkout, mounted into an element. This module (and
// @stripe/stripe-js with it) is fetched only when a payment frame is shown
// (a dynamic import from PaymentFrame); the "pure" build loads Stripe.js
// from stripe.com only when loadStripe is called, never on import.
// @stripe/stripe-js 10 names the call createEmbeddedCheckoutPage (it was
// initEmbeddedCheckout before).

import { loadStripe } from '@stripe/stripe-js/pure';

export interface Mounted {
  destroy: () => void;
}

export async function mountEmbeddedCheckout(
  publishableKey: string,
  clientSecret: string,
  el: HTMLElement,
  opts: { locale: string; onComplete: () => void },
): Promise<Mounted> {
  const stripe = await loadStripe(publishableKey, { locale: opts.locale === 'pt-BR' ? 'pt-BR' : 'en' });
  if (!stripe) throw new Error('Stripe.js could not be loaded');
  const checkout = await stripe.createEmbeddedCheckoutPage({ clientSecret, onComplete: opts.onComplete });
  checkout.mount(el);
  return checkout;
}
