import { Badge } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { EnumBadge } from '../../../components/records/EnumBadge';
import type { FieldDef } from '../../../components/records/fields';
import { MoneyText } from '../../../components/records/Money';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import type { ColumnKind } from '../registry';

/** What some kinds need beyond the value: the enum's name, the db and label field of a reference, a wallet's currency. */
export interface ValueContext {
  name?: string;
  enumName?: string;
  db?: string;
  refLabel?: string;
  currency?: string | null;
  precision?: number | null;
}

/** formatValue shows one field of a record for lists and details. */
export function formatValue(kind: ColumnKind, value: unknown, locale: string, t: TFunction, ctx: ValueContext = {}): ReactNode {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'date':
      return formatDate(value as string, locale);
    case 'datetime':
      return formatDateTime(value as string, locale);
    case 'number':
      return typeof value === 'number' ? formatNumber(value, locale) : String(value);
    case 'money':
      return <MoneyText units={value} currency={ctx.currency ?? null} precision={ctx.precision ?? null} />;
    case 'enum':
      return <EnumBadge name={ctx.enumName ?? ctx.name ?? ''} value={value} />;
    case 'ref':
      return ctx.db ? <RecordLink db={ctx.db} id={value} labelField={ctx.refLabel ?? 'name'} /> : String(value);
    case 'multiline':
      return <MultilineText text={value} clampLines={12} />;
    case 'boolean':
      return <Badge size="small" variation={value === true ? 'success' : undefined}>{value === true ? t('common.yes') : t('common.no')}</Badge>;
    default:
      if (typeof value === 'object') {
        if (Array.isArray(value)) return value.map(String).join(', ');
        const o = value as { label?: unknown; _id?: unknown };
        return typeof o.label === 'string' ? o.label : typeof o._id === 'string' ? o._id : JSON.stringify(value);
      }
      return String(value);
  }
}

/** fieldKind: how a form field's value is shown on lists and details. */
export function fieldKind(def: FieldDef): ColumnKind {
  switch (def.type) {
    case 'textarea':
      return 'multiline';
    case 'select':
      return 'enum';
    case 'ref':
    case 'money':
    case 'number':
    case 'date':
    case 'boolean':
      return def.type;
    default:
      return 'text';
  }
}

/** fieldContext: what formatValue needs to show a field of def's kind. */
export function fieldContext(def: FieldDef | undefined, name: string, db: string): ValueContext {
  return {
    name,
    db,
    ...(def?.optionLabels ? { enumName: def.optionLabels.replace(/^enums\./, '') } : {}),
    ...(def?.refLabel ? { refLabel: def.refLabel } : {}),
  };
}

/** moneyOf: a record's own currency and precision (a wallet's), for its amounts. */
export function moneyOf(doc: Record<string, unknown> | undefined): Pick<ValueContext, 'currency' | 'precision'> {
  return {
    ...(typeof doc?.currency === 'string' ? { currency: doc.currency } : {}),
    ...(typeof doc?.precision === 'number' ? { precision: doc.precision } : {}),
  };
}

/** kindOf guesses how to show a field that has no column definition. */
export function kindOf(name: string, value: unknown): ColumnKind {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (name === 'created_at' || name === 'updated_at') return 'datetime';
  if (/(_at|date|next_maintenance)$/.test(name)) return 'date';
  if (typeof value === 'string' && value.includes('\n')) return 'multiline';
  return 'text';
}
