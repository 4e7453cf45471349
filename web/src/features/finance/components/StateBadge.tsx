import { Badge } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { stateOf } from '../filters';
import type { MoneyRecord } from '../api/types';

const TONE = { confirmed: 'success', unconfirmed: 'warning', imported: 'info' } as const;

/** StateBadge: confirmed, unconfirmed (pending) or imported (waiting for review). */
export function StateBadge({ record }: { record: Pick<MoneyRecord, 'confirmed' | 'imported'> }) {
  const { t } = useTranslation();
  const state = stateOf(record);
  return (
    <Badge size="small" variation={TONE[state]} data-state={state} className="state-badge">
      {t(`finance.states.${state}`)}
    </Badge>
  );
}
