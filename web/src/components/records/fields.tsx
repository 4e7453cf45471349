// Form fields for record forms, driven by a small definition: the label, the
// control, and the server's field errors under the field (SPEC §8).

import { SelectField, SwitchField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

export const TEXTAREA_ROWS = 10;

export type FieldType = 'text' | 'email' | 'url' | 'number' | 'date' | 'textarea' | 'boolean' | 'select' | 'color';

export interface FieldDef {
  name: string;
  type: FieldType;
  /** i18n key of the label; fields.<name> by default. */
  label?: string;
  required?: boolean;
  options?: readonly string[];
  /** i18n key prefix of the option labels (options are shown raw without it). */
  optionLabels?: string;
}

export type FormValues = Record<string, unknown>;

export function RecordField({
  def,
  value,
  onChange,
  error,
  disabled,
}: {
  def: FieldDef;
  value: unknown;
  onChange: (name: string, value: unknown) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const label = t(def.label ?? `fields.${def.name}`);
  const common = {
    label,
    name: def.name,
    hasError: !!error,
    errorMessage: error,
    isDisabled: disabled,
    isRequired: def.required,
  };
  const str = value === null || value === undefined ? '' : String(value);
  switch (def.type) {
    case 'textarea':
      return <TextAreaField {...common} rows={TEXTAREA_ROWS} value={str} onChange={(e) => onChange(def.name, e.target.value)} />;
    case 'boolean':
      return (
        <SwitchField
          label={label}
          name={def.name}
          isChecked={value === true}
          isDisabled={disabled}
          hasError={!!error}
          errorMessage={error}
          onChange={(e) => onChange(def.name, e.target.checked)}
        />
      );
    case 'select':
      return (
        <SelectField {...common} value={str} onChange={(e) => onChange(def.name, e.target.value)} placeholder={t('records.choose')}>
          {(def.options ?? []).map((o) => (
            <option key={o} value={o}>
              {def.optionLabels ? t(`${def.optionLabels}.${o}`) : o}
            </option>
          ))}
        </SelectField>
      );
    case 'number':
      return (
        <TextField
          {...common}
          type="number"
          inputMode="decimal"
          value={str}
          onChange={(e) => onChange(def.name, e.target.value === '' ? null : Number(e.target.value))}
        />
      );
    default:
      return <TextField {...common} type={def.type} value={str} onChange={(e) => onChange(def.name, e.target.value)} />;
  }
}
