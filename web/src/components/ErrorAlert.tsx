// Error display per SPEC §8: the title keyed by the error name, the message
// keyed by the reason (fallback: the raw reason), dismissible to clear it.

import { Alert } from '@aws-amplify/ui-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { messageKey, titleKey, type ApiError } from '../lib/errors';

/** useErrorText translates an error's title, message and field messages. */
export function useErrorText() {
  const { t } = useTranslation();
  const message = useCallback(
    (reason: string) => (reason ? t(messageKey(reason), { defaultValue: reason }) : ''),
    [t],
  );
  const title = useCallback((error: ApiError) => t(titleKey(error.error)), [t]);
  return { title, message };
}

/**
 * fieldError returns the translated messages of one field, joined, or
 * undefined, ready for Amplify's errorMessage/hasError.
 */
export function useFieldError(error: ApiError | null | undefined) {
  const { message } = useErrorText();
  return useCallback(
    (field: string): string | undefined => {
      const msgs = error?.fields[field];
      if (!msgs || msgs.length === 0) return undefined;
      return msgs.map(message).join(', ');
    },
    [error, message],
  );
}

export function ErrorAlert({
  error,
  onDismiss,
  showFields = false,
}: {
  error: ApiError | null | undefined;
  onDismiss?: () => void;
  /** List field errors in the alert too (for forms without those fields). */
  showFields?: boolean;
}) {
  const { title, message } = useErrorText();
  if (!error) return null;
  const text = message(error.reason);
  const fieldLines = showFields
    ? Object.entries(error.fields).map(([f, msgs]) => `${f}: ${msgs.map(message).join(', ')}`)
    : [];
  return (
    <Alert
      variation="error"
      heading={title(error)}
      isDismissible={!!onDismiss}
      onDismiss={onDismiss}
      role="alert"
      data-testid="error-alert"
      data-error={error.error}
    >
      {text}
      {fieldLines.length > 0 ? (
        <ul className="error-alert__fields">
          {fieldLines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
