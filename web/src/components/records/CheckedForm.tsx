// CheckedForm: a record form that checks its fields before sending (the
// errors land under the fields, the first one focused, nothing sent), sends
// with Ctrl/⌘+Enter from any field, and ignores a second submit while one
// is being saved.

import { Button, Flex } from '@aws-amplify/ui-react';
import { forwardRef, useImperativeHandle, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { clientValidationError, type ApiError, type FieldErrors } from '../../lib/errors';

export const CheckedForm = forwardRef<
  HTMLFormElement | null,
  {
    /** The form's accessible name (the screen's title). */
    label?: string;
    /** The client checks; an empty object sends. */
    check: () => FieldErrors;
    onInvalid: (error: ApiError) => void;
    onValid: () => void;
    saving?: boolean;
    children: ReactNode;
  }
>(function CheckedForm({ label, check, onInvalid, onValid, saving = false, children }, ref) {
  const form = useRef<HTMLFormElement>(null);
  useImperativeHandle<HTMLFormElement | null, HTMLFormElement | null>(ref, () => form.current, []);
  return (
    <form
      ref={form}
      noValidate
      data-testid="record-form"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          e.currentTarget.requestSubmit();
        }
      }}
      onSubmit={(e) => {
        e.preventDefault();
        if (saving) return;
        const errs = check();
        const first = Object.keys(errs)[0];
        if (first) {
          onInvalid(clientValidationError(errs));
          form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
          return;
        }
        onValid();
      }}
    >
      {children}
    </form>
  );
});

/** FormActions: the form's Cancel and Save (Ctrl/⌘+Enter), Save busy while saving. */
export function FormActions({ saving, onCancel, saveTestId = 'save-record' }: { saving: boolean; onCancel: () => void; saveTestId?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Flex gap="small" justifyContent="flex-end">
      <Button type="button" onClick={onCancel} isDisabled={saving}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variation="primary" isLoading={saving} loadingText={t('common.saving')} data-testid={saveTestId} aria-keyshortcuts="Control+Enter">
        {t('common.save')}
      </Button>
    </Flex>
  );
}
