// RecordForm: the new/edit screen of a record — loading state, the error
// alert, fields with their server errors, autofocus retried until loaded,
// save and cancel.

import { Button, Card, Flex, Placeholder } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { clientValidationError, type ApiError } from '../../lib/errors';
import { ErrorAlert, useFieldError } from '../ErrorAlert';
import { RecordField, validateFields, type FieldDef, type FormValues } from './fields';
import { useAutofocus } from './useAutofocus';

export function RecordForm({
  fields,
  values,
  onChange,
  onSubmit,
  onCancel,
  loading = false,
  saving = false,
  error,
  onDismissError,
  submitLabel,
  children,
}: {
  fields: FieldDef[];
  values: FormValues;
  onChange: (name: string, value: unknown) => void;
  onSubmit: () => void;
  onCancel?: () => void;
  loading?: boolean;
  saving?: boolean;
  error?: ApiError | null;
  onDismissError?: () => void;
  submitLabel?: string;
  /** Extra controls after the defined fields. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  useAutofocus(ref, loading);
  // Checked before sending: nothing is sent while a field is wrong.
  const [local, setLocal] = useState<ApiError | null>(null);
  const shown = local ?? error ?? null;
  const fieldError = useFieldError(shown);
  const known = new Set(fields.map((f) => f.name));
  const hasOtherFieldErrors = !!shown && Object.keys(shown.fields).some((f) => !known.has(f));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const errs = validateFields(fields, values);
    if (Object.keys(errs).length > 0) {
      setLocal(clientValidationError(errs));
      ref.current?.querySelector<HTMLElement>(`[name="${Object.keys(errs)[0]}"]`)?.focus();
      return;
    }
    setLocal(null);
    onSubmit();
  };

  return (
    <Card variation="outlined">
      <form ref={ref} onSubmit={submit} noValidate aria-busy={loading} data-testid="record-form">
        <Flex direction="column" gap="medium">
          <ErrorAlert
            error={shown}
            onDismiss={() => {
              setLocal(null);
              onDismissError?.();
            }}
            showFields={hasOtherFieldErrors}
          />
          {loading
            ? fields.map((f) => <Placeholder key={f.name} size="large" />)
            : fields.map((f) => (
                <RecordField
                  key={f.name}
                  def={f}
                  value={values[f.name]}
                  onChange={(name, value) => {
                    if (local?.fields[name]) setLocal(null);
                    onChange(name, value);
                  }}
                  error={fieldError(f.name)}
                  disabled={saving}
                />
              ))}
          {children}
          <Flex gap="small" justifyContent="flex-end">
            {onCancel ? (
              <Button type="button" onClick={onCancel} isDisabled={saving}>
                {t('common.cancel')}
              </Button>
            ) : null}
            <Button type="submit" variation="primary" isLoading={saving} isDisabled={loading} loadingText={t('common.saving')}>
              {submitLabel ?? t('common.save')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}
