// The subscription form (new and edit): the feed URL (or a web page that
// declares one), title, keep-my-title, labels, refresh interval, active.

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '../../../components/ErrorAlert';
import { RecordForm } from '../../../components/records/RecordForm';
import type { FieldDef } from '../../../components/records/fields';
import { labelsQuery } from '../api/labels';
import { LabelChecklist } from './LabelChecklist';
import type { ReaderFormProps } from './LabelForm';

export const SUBSCRIPTION_FIELDS: FieldDef[] = [
  { name: 'url', type: 'url', required: true, label: 'reader.feedUrl' },
  { name: 'title', type: 'text' },
  { name: 'customize_title', type: 'boolean', label: 'reader.customizeTitle' },
  { name: 'refresh_interval', type: 'number', label: 'fields.refresh_interval' },
  { name: 'active', type: 'boolean' },
];

export function SubscriptionForm({
  db,
  values,
  onChange,
  onSubmit,
  onCancel,
  loading,
  saving,
  error,
  onDismissError,
  submitLabel,
  hint,
}: ReaderFormProps & {
  db: string;
  submitLabel?: string;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  const labels = useQuery(labelsQuery(db));
  const fieldError = useFieldError(error);
  return (
    <RecordForm
      fields={SUBSCRIPTION_FIELDS}
      values={values}
      onChange={onChange}
      onSubmit={onSubmit}
      onCancel={onCancel}
      loading={!!loading}
      saving={saving}
      error={error}
      onDismissError={onDismissError}
      submitLabel={submitLabel ?? t('common.save')}
    >
      <LabelChecklist
        db={db}
        labels={labels.data ?? []}
        value={Array.isArray(values.reader_label_ids) ? (values.reader_label_ids as string[]) : []}
        onChange={(ids) => onChange('reader_label_ids', ids)}
        error={fieldError('reader_label_ids')}
        disabled={saving}
      />
      {hint}
    </RecordForm>
  );
}

/** toNumber turns the interval field's text into the number the server wants. */
export function toNumber(v: unknown): number | undefined {
  if (v === '' || v === null || v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : (v as number);
}
