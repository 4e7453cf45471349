// EnumBadge: an enum value (ticket status, priority, kind, any enum with
// translations under enums.<name>) as a translated, coloured chip.

import { Badge, type BadgeVariations } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

/** Colours by enum and value; values without one are neutral. */
const TONES: Record<string, Record<string, BadgeVariations>> = {
  status: { open: 'info', block: 'error', doing: 'warning', review: 'info', done: 'success' },
  priority: { high: 'error', medium: 'warning', low: 'info' },
  // A repair is the everyday kind (not an alarm): neutral.
  ticket_kind: { chore: 'success', story: 'info' },
  fetch_status: { ok: 'success', error: 'error', pending: 'info' },
  estimate_state: { sent: 'info', approved: 'success', refused: 'error' },
};

export function enumTone(name: string, value: string): BadgeVariations | undefined {
  return TONES[name]?.[value];
}

export function EnumBadge({ name, value, size = 'small' }: { name: string; value: unknown; size?: 'small' | 'large' }) {
  const { t } = useTranslation();
  if (typeof value !== 'string' || value === '') return null;
  const tone = enumTone(name, value);
  return (
    <Badge size={size} {...(tone ? { variation: tone } : {})} className={`enum-badge enum-badge--${name}`} data-value={value}>
      {t(`enums.${name}.${value}`, { defaultValue: value })}
    </Badge>
  );
}
