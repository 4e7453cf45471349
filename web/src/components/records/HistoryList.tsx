// The history panel of a record screen: its DocumentChange versions, newest
// first — the event, who made it, when, and which fields changed.

import { Badge, Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { baseEvent, historyQuery, shownFields } from '../../lib/history';

const TONE = { created: 'success', updated: 'info', destroyed: 'error' } as const;

export function HistoryList({ db, itemId }: { db: string; itemId: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ ...historyQuery(db, itemId), enabled: !!db && !!itemId });
  if (q.isPending) {
    return (
      <Flex direction="column" gap="xs">
        <Placeholder />
        <Placeholder />
      </Flex>
    );
  }
  const versions = q.data ?? [];
  if (q.isError || versions.length === 0) return <Text variation="secondary">{t('records.noHistory')}</Text>;
  return (
    <ol className="history-list" data-testid="history-list">
      {versions.map((v) => {
        const base = baseEvent(v.event);
        return (
          <li key={v._id} className="history-list__item">
            <Flex gap="xs" alignItems="center" wrap="wrap">
              <Badge size="small" variation={TONE[base]}>
                {t(`timeline.${base}`)}
              </Badge>
              {v.event && baseEvent(v.event) === 'updated' && v.event !== 'update' ? (
                <Badge size="small">{t(`timeline.events.${v.event}`, { defaultValue: v.event })}</Badge>
              ) : null}
              <Text as="span" fontSize="small" variation="secondary">
                {formatDateTime(v.created_at, i18n.language)}
              </Text>
            </Flex>
            <Text fontSize="small">
              {t('timeline.by', { who: v.whodunnit?.label || v.whodunnit?._id || t('timeline.someone') })}
            </Text>
            {shownFields(v.changed).length > 0 ? (
              <Text fontSize="small" variation="tertiary">
                {t('timeline.changed', { fields: shownFields(v.changed).map((f) => t(`fields.${f}`, { defaultValue: f })).join(', ') })}
              </Text>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
