// Error display per SPEC §8: the title keyed by the error name, the message
// keyed by the reason (fallback: the raw reason), dismissible to clear it.

import { Alert } from '@aws-amplify/ui-react';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageKey, reasonKey, titleKey, type ApiError } from '../lib/errors';

/**
 * The server's bounded refusals (shared/schema's message templates): any
 * bound translates, not only the ones a locale file lists word for word.
 */
const BOUNDED: [RegExp, string][] = [
  [/^is too long \(maximum is (\d+) characters\)$/, 'too_long'],
  [/^is too long \(maximum is (\d+) items\)$/, 'too_many'],
  [/^must be greater than or equal to (-?\d+)$/, 'min'],
  [/^must be less than or equal to (-?\d+)$/, 'max'],
];

function boundedKey(reason: string): [string, string] | null {
  for (const [re, key] of BOUNDED) {
    const m = re.exec(reason);
    if (m) return [`errors.bounded.${key}`, m[1]!];
  }
  return null;
}

/** useErrorText translates an error's title, message and field messages. */
export function useErrorText() {
  const { t, i18n } = useTranslation();
  const message = useCallback(
    (reason: string) => {
      if (!reason) return '';
      const bounded = boundedKey(reason);
      if (bounded && !i18n.exists(messageKey(reason))) return t(bounded[0], { n: bounded[1], defaultValue: reason });
      return t(messageKey(reason), { defaultValue: reason });
    },
    [t, i18n],
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

/** errorOf: a field's error message as the props Amplify's fields show it with. */
export function errorOf(message: string | undefined): { hasError: boolean; errorMessage: string | undefined } {
  return { hasError: !!message, errorMessage: message };
}

/** The reasons that only say "a field is wrong": the fields say which and why. */
const GENERIC_REASONS = new Set(['', 'your-request-failed']);

/**
 * controlOf finds the control a form shows a field's error on: an element
 * named after the field that is marked invalid, or whose field shows an
 * error message (Amplify's checkboxes and switches mark only their wrapper).
 */
function controlOf(form: HTMLFormElement, field: string): HTMLElement | null {
  for (const el of form.querySelectorAll<HTMLElement>(`[name="${CSS.escape(field)}"]`)) {
    if (el.getAttribute('aria-invalid') === 'true' || el.closest('.amplify-field')?.querySelector('.amplify-field__error-message')) return el;
  }
  return null;
}

/**
 * ErrorAlert shows an error's title and message. Inside a form, an error
 * that only says fields are wrong ("Your request failed" with field
 * errors) shows no banner when the form shows every one of those messages
 * under its field: the first field at fault gets the focus instead (issue
 * 22 item 11). A field the form has no control for keeps the banner, which
 * then lists it (showFields) by its label.
 */
export function ErrorAlert({
  error,
  onDismiss,
  showFields = false,
  alsoUnder = [],
}: {
  error: ApiError | null | undefined;
  onDismiss?: () => void;
  /** List field errors in the alert too (for forms without those fields). */
  showFields?: boolean;
  /** Fields whose messages the form shows under a control of another name (unconfirmed_email under email). */
  alsoUnder?: readonly string[];
}) {
  const { t } = useTranslation();
  const { title, message } = useErrorText();
  const anchor = useRef<HTMLSpanElement>(null);
  const [underFields, setUnderFields] = useState<ApiError | null>(null);
  useLayoutEffect(() => {
    const form = anchor.current?.closest('form');
    const names = error ? Object.keys(error.fields) : [];
    if (!error || !form || names.length === 0 || !GENERIC_REASONS.has(reasonKey(error.reason))) {
      setUnderFields(null);
      return;
    }
    const shown = names.filter((f) => alsoUnder.includes(f) || controlOf(form, f));
    if (shown.length < names.length) {
      setUnderFields(null);
      return;
    }
    setUnderFields(error);
    // The first field at fault, in the form's order, takes the focus.
    const controls = names.map((f) => controlOf(form, f)).filter((el): el is HTMLElement => !!el);
    const first = controls.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
    if (first && document.activeElement !== first) first.focus();
    // alsoUnder is a constant of the form: the error alone decides.
  }, [error]);
  if (!error) return null;
  const hidden = <span ref={anchor} hidden data-testid={underFields === error ? 'errors-under-fields' : undefined} />;
  if (underFields === error) return hidden;
  const text = message(error.reason);
  const fieldLines = showFields
    ? Object.entries(error.fields).map(([f, msgs]) => `${t(`fields.${f}`, { defaultValue: f })}: ${msgs.map(message).join(', ')}`)
    : [];
  return (
    <>
      {hidden}
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
    </>
  );
}
