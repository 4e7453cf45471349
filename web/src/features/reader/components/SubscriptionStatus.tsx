// A subscription's fetch status: ok, error (with the error), or pending
// until its first fetch.

import { EnumBadge } from '../../../components/records/EnumBadge';

export function SubscriptionStatus({ status, error }: { status?: string | undefined; error?: string | undefined }) {
  const s = status === 'ok' || status === 'error' ? status : 'pending';
  return (
    <span data-testid="fetch-status" data-status={s}>
      <EnumBadge name="fetch_status" value={s} />
      {s === 'error' && error ? <span className="fetch-error"> {error}</span> : null}
    </span>
  );
}
