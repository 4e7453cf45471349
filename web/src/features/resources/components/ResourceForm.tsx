// The new/edit form of a resource set, on the record kit.

import { useState } from 'react';
import { RecordForm } from '../../../components/records/RecordForm';
import type { FormValues } from '../../../components/records/fields';
import type { ApiError } from '../../../lib/errors';
import type { ResourceDef } from '../registry';

export function ResourceForm({
  def,
  initial,
  loading,
  saving,
  error,
  onDismissError,
  onSubmit,
  onCancel,
}: {
  def: ResourceDef;
  initial: FormValues;
  loading: boolean;
  saving: boolean;
  error: ApiError | null;
  onDismissError: () => void;
  onSubmit: (values: FormValues) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<FormValues>(initial);
  const [seeded, setSeeded] = useState(!loading);
  if (!seeded && !loading) {
    setSeeded(true);
    setValues(initial);
  }
  return (
    <RecordForm
      fields={def.fields}
      values={values}
      onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
      onSubmit={() => onSubmit(def.derive ? { ...values, ...def.derive(values) } : values)}
      onCancel={onCancel}
      loading={loading}
      saving={saving}
      error={error}
      onDismissError={onDismissError}
    />
  );
}
