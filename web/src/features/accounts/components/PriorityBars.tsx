// The ticket app's two priority bars (SPEC §2 Admin, §9): open tickets and
// all tickets by priority, whole-number percentages with low the remainder.

import { Card, Flex, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { priorityPercentages } from '../../../lib/format';
import { groupedQuery, type CounterView } from '../api/views';

const LEVELS = ['high', 'medium', 'low'] as const;

function Bar({ db, view, title }: { db: string; view: CounterView; title: string }) {
  const { t } = useTranslation();
  const q = useQuery(groupedQuery(db, view));
  const counts = q.data ?? {};
  const pct = priorityPercentages({ high: counts.high ?? 0, medium: counts.medium ?? 0, low: counts.low ?? 0 });
  const total = (counts.high ?? 0) + (counts.medium ?? 0) + (counts.low ?? 0);
  return (
    <Flex direction="column" gap="xxs" data-testid={`priority-${view}`}>
      <Text fontSize="small" fontWeight="bold">
        {title}
      </Text>
      {q.isPending ? (
        <Placeholder />
      ) : (
        <>
          <div
            className="priority-bar"
            role="img"
            aria-label={LEVELS.map((l) => `${t(`enums.priority.${l}`)} ${pct[l]}%`).join(', ')}
          >
            {total === 0 ? <span className="priority-bar__empty" /> : null}
            {LEVELS.map((l) => (pct[l] > 0 ? <span key={l} className={`priority-bar__seg priority-bar__seg--${l}`} style={{ width: `${pct[l]}%` }} /> : null))}
          </div>
          <Flex gap="small" wrap="wrap">
            {LEVELS.map((l) => (
              <Text key={l} as="span" fontSize="small" variation="secondary" data-level={l}>
                <span className={`priority-dot priority-bar__seg--${l}`} /> {t(`enums.priority.${l}`)} {pct[l]}%
              </Text>
            ))}
          </Flex>
        </>
      )}
    </Flex>
  );
}

export function PriorityBars({ db }: { db: string }) {
  const { t } = useTranslation();
  return (
    <Card variation="outlined" data-testid="priority-bars">
      <Heading level={5} marginBottom="small">
        {t('accounts.admin.priorities')}
      </Heading>
      <Flex direction="column" gap="medium">
        <Bar db={db} view="count-by-open-ticket-priority" title={t('accounts.admin.openTickets')} />
        <Bar db={db} view="count-by-ticket-priority" title={t('accounts.admin.allTickets')} />
      </Flex>
    </Card>
  );
}
