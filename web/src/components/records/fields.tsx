// Form fields for record forms, driven by a small definition: the label, the
// control, and the server's field errors under the field (SPEC §8).

import { SelectField, SwitchField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useActiveDb } from '../../lib/active-db';
import { MoneyInput } from './Money';
import { RecordPicker } from './RecordPicker';
import { errorOf } from '../ErrorAlert';

export const TEXTAREA_ROWS = 10;

export type FieldType = 'text' | 'email' | 'url' | 'number' | 'date' | 'textarea' | 'boolean' | 'select' | 'color' | 'ref' | 'money';

export interface FieldDef {
  name: string;
  type: FieldType;
  /** i18n key of the label; fields.<name> by default. */
  label?: string;
  required?: boolean;
  options?: readonly string[];
  /** i18n key prefix of the option labels (options are shown raw without it). */
  optionLabels?: string;
  /** ref: the klass of the referenced records, searched by refLabel (default name). */
  ref?: string;
  refLabel?: string;
  /** ref: a second field shown beside the label in the choices. */
  refDetail?: string;
  /** money: negative amounts allowed (an opening balance). */
  signed?: boolean;
  /** textarea: its rows (TEXTAREA_ROWS by default). */
  rows?: number;
  /** i18n key of a hint under the label. */
  hint?: string;
  /** number: the least value the control offers. */
  min?: number;
}

export type FormValues = Record<string, unknown>;

export function RecordField({
  def,
  value,
  onChange,
  error,
  disabled,
  db,
}: {
  /** The Group a reference is searched in (the active Group's by default). */
  db?: string | undefined;
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
    descriptiveText: def.hint ? t(def.hint) : undefined,
  };
  const str = value === null || value === undefined ? '' : String(value);
  switch (def.type) {
    case 'textarea':
      return <TextAreaField {...common} rows={def.rows ?? TEXTAREA_ROWS} value={str} onChange={(e) => onChange(def.name, e.target.value)} />;
    case 'boolean':
      return (
        <SwitchField
          label={label}
          name={def.name}
          isChecked={value === true}
          isDisabled={disabled}
          {...errorOf(error)}
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
    case 'ref':
      return <RefField db={db} def={def} value={value} onChange={onChange} error={error} disabled={disabled} label={label} />;
    case 'money':
      return (
        <MoneyInput
          label={label}
          name={def.name}
          units={typeof value === 'number' ? value : null}
          onChange={(units) => onChange(def.name, units)}
          error={error}
          isRequired={def.required}
          isDisabled={disabled}
          allowNegative={def.signed}
        />
      );
    case 'number':
      return (
        <TextField
          {...common}
          type="number"
          inputMode="decimal"
          min={def.min}
          value={str}
          onChange={(e) => onChange(def.name, e.target.value === '' ? null : Number(e.target.value))}
        />
      );
    case 'date':
      return <TextField {...common} type="date" value={str} onChange={(e) => onChange(def.name, e.target.value || null)} />;
    default:
      return <TextField {...common} type={def.type} value={str} onChange={(e) => onChange(def.name, e.target.value)} />;
  }
}

/** RefField: a reference chosen by name from the active Group's records. */
function RefField({
  db: inDb,
  def,
  value,
  onChange,
  error,
  disabled,
  label,
}: {
  db: string | undefined;
  def: FieldDef;
  value: unknown;
  onChange: (name: string, value: unknown) => void;
  error?: string | undefined;
  disabled?: boolean | undefined;
  label: string;
}) {
  const active = useActiveDb();
  const db = inDb || active || '';
  return (
    <RecordPicker
      db={db}
      klass={def.ref ?? ''}
      labelField={def.refLabel ?? 'name'}
      detailField={def.refDetail}
      label={label}
      name={def.name}
      value={typeof value === 'string' ? value : null}
      onChange={(id) => onChange(def.name, id)}
      error={error}
      isRequired={def.required}
      isDisabled={disabled}
    />
  );
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** NOT_WEB_ADDRESS is the client's message for a URL field that is not one (errors.messages.not-a-web-address). */
export const NOT_WEB_ADDRESS = 'not a web address';

/** isWebAddress: what the server takes as a URL field (an http or https address with a host, no spaces). */
export function isWebAddress(v: string): boolean {
  const s = v.trim();
  if (!s || /\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * validateFields: the checks a form makes before sending (the server makes
 * them again): required fields, e-mail shape, web addresses, numbers and
 * amounts that are not numbers, negative amounts. Messages are the server's generic ones,
 * so they translate the same way.
 */
export function validateFields(fields: FieldDef[], values: FormValues): Record<string, string[]> {
  const errs: Record<string, string[]> = {};
  for (const f of fields) {
    const v = values[f.name];
    const blank = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (blank) {
      if (f.required) errs[f.name] = ["can't be blank"];
      continue;
    }
    if (f.type === 'email' && (typeof v !== 'string' || !EMAIL_RE.test(v.trim()))) errs[f.name] = ['is invalid'];
    if (f.type === 'url' && (typeof v !== 'string' || !isWebAddress(v))) errs[f.name] = [NOT_WEB_ADDRESS];
    if ((f.type === 'number' || f.type === 'money') && (typeof v !== 'number' || Number.isNaN(v))) errs[f.name] = ['is not a number'];
    else if (f.type === 'money' && !f.signed && typeof v === 'number' && v < 0) errs[f.name] = ['must be greater than or equal to 0'];
  }
  return errs;
}
