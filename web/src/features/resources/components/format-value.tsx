import { Badge } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import type { ColumnKind } from '../registry';

/** formatValue shows one field of a record for lists and details. */
export function formatValue(kind: ColumnKind, value: unknown, locale: string, t: TFunction): ReactNode {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'date':
      return formatDate(value as string, locale);
    case 'datetime':
      return formatDateTime(value as string, locale);
    case 'number':
      return typeof value === 'number' ? formatNumber(value, locale) : String(value);
    case 'boolean':
      return <Badge size="small" variation={value === true ? 'success' : undefined}>{value === true ? t('common.yes') : t('common.no')}</Badge>;
    default:
      if (typeof value === 'object') {
        const o = value as { label?: unknown; _id?: unknown };
        return typeof o.label === 'string' ? o.label : typeof o._id === 'string' ? o._id : JSON.stringify(value);
      }
      return String(value);
  }
}

/** kindOf guesses how to show a field that has no column definition. */
export function kindOf(name: string, value: unknown): ColumnKind {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (name === 'created_at' || name === 'updated_at') return 'datetime';
  if (/(_at|date|next_maintenance)$/.test(name)) return 'date';
  return 'text';
}
