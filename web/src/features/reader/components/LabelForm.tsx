// The label form (new and edit): a name, unique in the Group, and a kind.

import { RecordForm } from '../../../components/records/RecordForm';
import type { FieldDef, FormValues } from '../../../components/records/fields';
import type { ApiError } from '../../../lib/errors';

export const LABEL_FIELDS: FieldDef[] = [
  { name: 'name', type: 'text', required: true },
  { name: 'kind', type: 'select', options: ['label', 'folder'], optionLabels: 'reader.kinds' },
];

/** ReaderFormProps: what the reader's new and edit screens give their forms. */
export interface ReaderFormProps {
  values: FormValues;
  onChange: (name: string, value: unknown) => void;
  onSubmit: () => void;
  onCancel: () => void;
  loading?: boolean;
  saving: boolean;
  error: ApiError | null;
  onDismissError: () => void;
}

export function LabelForm(props: ReaderFormProps) {
  return <RecordForm fields={LABEL_FIELDS} {...props} loading={!!props.loading} />;
}
