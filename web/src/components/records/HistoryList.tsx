// The history panel of a record screen: its DocumentChange versions, newest
// first — the event, who made it, when, and which fields changed, in the
// words the record's module declared; one author's changes within minutes
// read as one.

import { Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { collapseEntries, entryOfVersion, historyQuery } from '../../lib/history';
import { ChangeBadges, ChangeByline } from './ChangeSummary';
import { labelsQuery } from './labels';

export function HistoryList({ db, itemId }: { db: string; itemId: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ ...historyQuery(db, itemId), enabled: !!db && !!itemId });
  // The entries' words (ChangeSummary's), read with the entries rather than once they show.
  useQuery(labelsQuery);
  if (q.isPending) {
    return (
      <Flex direction="column" gap="xs">
        <Placeholder />
        <Placeholder />
      </Flex>
    );
  }
  const entries = collapseEntries((q.data ?? []).map((v) => entryOfVersion(v)));
  if (q.isError || entries.length === 0) return <Text variation="secondary">{t('records.noHistory')}</Text>;
  return (
    <ol className="history-list" data-testid="history-list">
      {entries.map((e) => (
        <li key={e.key} className="history-list__item" data-testid="history-entry">
          <Flex gap="xs" alignItems="center" wrap="wrap">
            <ChangeBadges entry={e} />
            <Text as="span" fontSize="small" variation="secondary">
              {formatDateTime(e.at, i18n.language)}
            </Text>
          </Flex>
          <ChangeByline entry={e} />
        </li>
      ))}
    </ol>
  );
}
