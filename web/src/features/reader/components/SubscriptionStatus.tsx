// A subscription's fetch status: ok, error (with the error), or pending
// until its first fetch.

import { Badge } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

export function SubscriptionStatus({ status, error }: { status?: string | undefined; error?: string | undefined }) {
  const { t } = useTranslation();
  const s = status === 'ok' || status === 'error' ? status : 'pending';
  return (
    <span data-testid="fetch-status" data-status={s}>
      <Badge size="small" variation={s === 'ok' ? 'success' : s === 'error' ? 'error' : 'info'}>
        {t(`reader.status_${s}`)}
      </Badge>
      {s === 'error' && error ? <span className="fetch-error"> {error}</span> : null}
    </span>
  );
}
