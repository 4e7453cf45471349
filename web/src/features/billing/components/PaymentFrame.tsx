// The embedded payment frame (SPEC §2 checkout, §7 external): a checkout
// session is created on the server for the price, then Stripe's embedded
// Checkout is mounted with its client secret. When the server's test-only
// completion switch is on (e2e, never in the cloud) Stripe.js is not
// loaded at all — stripe.com is out of reach there — and a "Complete test
// payment" button asks the server to apply what the completed checkout's
// webhook would.

import { Alert, Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { useThemeMode } from '../../../lib/theme';
import { completeTestCheckout, startCheckout, type CheckoutSession } from '../api/billing';

function StripeMount({ session, onComplete }: { session: CheckoutSession; onComplete: () => void }) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const done = useRef(onComplete);
  done.current = onComplete;
  useEffect(() => {
    let cancelled = false;
    let mounted: { destroy: () => void } | null = null;
    import('./stripe')
      .then(({ mountEmbeddedCheckout }) => {
        if (cancelled || !el.current) return null;
        return mountEmbeddedCheckout(session.publishable_key, session.client_secret, el.current, {
          locale: i18n.language,
          onComplete: () => done.current(),
        });
      })
      .then((m) => {
        if (cancelled) m?.destroy();
        else if (m) {
          mounted = m;
          setState('ready');
        }
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      mounted?.destroy();
    };
  }, [session.publishable_key, session.client_secret, i18n.language]);
  return (
    <div className="checkout-frame" data-testid="stripe-frame" data-state={state}>
      {state === 'loading' ? <Loader size="large" ariaLabel={t('billing.pay.frameLoading')} /> : null}
      {state === 'failed' ? (
        <Alert variation="error" data-testid="stripe-failed">
          {t('billing.pay.frameFailed')}
        </Alert>
      ) : null}
      <div ref={el} />
    </div>
  );
}

export function PaymentFrame({
  db,
  priceId,
  disabled,
  testMode = false,
  onComplete,
}: {
  db: string;
  priceId: string;
  disabled: boolean;
  /** The server said (GET _billing) that its test-only completion is on. */
  testMode?: boolean;
  onComplete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { mode } = useThemeMode();
  const start = useMutation({ mutationFn: () => startCheckout(db, priceId, i18n.language, mode) });
  const complete = useMutation({
    mutationFn: (sid: string) => completeTestCheckout(db, sid),
    onSuccess: onComplete,
  });
  const session = start.data;
  if (!session) {
    return (
      <Flex direction="column" gap="small" alignItems="flex-start">
        {start.error ? <ErrorAlert error={asApiError(start.error)} onDismiss={() => start.reset()} showFields /> : null}
        <Button variation="primary" onClick={() => start.mutate()} isLoading={start.isPending} isDisabled={disabled} data-testid="checkout-start">
          {t('billing.pay.start')}
        </Button>
      </Flex>
    );
  }
  if (session.test_complete || testMode) {
    return (
      <div className="checkout-frame" data-testid="test-frame">
        <Text marginBottom="small">{t('billing.pay.testMode')}</Text>
        {complete.error ? <ErrorAlert error={asApiError(complete.error)} onDismiss={() => complete.reset()} /> : null}
        <Button variation="primary" onClick={() => complete.mutate(session.session_id)} isLoading={complete.isPending} data-testid="test-complete">
          {t('billing.pay.testComplete')}
        </Button>
      </div>
    );
  }
  return <StripeMount session={session} onComplete={onComplete} />;
}
