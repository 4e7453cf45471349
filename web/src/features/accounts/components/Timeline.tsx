// The recent-changes timeline (SPEC §2 Dashboard): change cards newest first,
// each linking to the record's plural#show route, labelled created, updated
// or destroyed, in the words the records' modules declared (issue 22 item 9).

import { Badge, Card, Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ChangeBadges, ChangeByline } from '../../../components/records/ChangeSummary';
import { AppLink } from '../../../components/RouterLink';
import { formatDateTime } from '../../../lib/format';
import { baseEvent, ownEvent } from '../../../lib/history';
import { useLabels } from '../../../components/records/labels';
import { recordPath } from '../../../lib/paths';
import type { ChangeCard } from '../api/timeline';

export function Timeline({ db, cards, loading }: { db: string; cards: ChangeCard[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const words = useLabels();
  if (loading) {
    return (
      <Flex direction="column" gap="small" data-testid="timeline-loading">
        {[0, 1, 2].map((i) => (
          <Card key={i} variation="outlined">
            <Placeholder />
          </Card>
        ))}
      </Flex>
    );
  }
  // An update that touched only what a module keeps for itself (the wiki's
  // links between pages, a ticket's status time) tells a person nothing.
  const shown = cards.filter(
    (c) => !(baseEvent(c.event) === 'updated' && !ownEvent(c.event, c.events) && words.declared(c.itemType) && words.fields(c.itemType, c.changed).length === 0),
  );
  if (shown.length === 0) {
    return (
      <div data-testid="timeline" data-count={0}>
        <EmptyState icon="history" title={t('dashboard.timeline.empty')} message={t('dashboard.timeline.emptyHelp')} />
      </div>
    );
  }
  return (
    <ol className="timeline" data-testid="timeline" data-count={shown.length}>
      {shown.map((c) => {
        const base = baseEvent(c.event);
        const to = base === 'destroyed' ? null : recordPath(db, c.itemId);
        const kind = c.itemType ? words.klass(c.itemType) : '';
        const what = c.label || kind || t('timeline.record');
        // Without a label of its own the record is named by its kind, once.
        const badge = c.label ? kind : '';
        return (
          <li
            key={c.key}
            className={`timeline__item timeline__item--${base}`}
            data-testid="change-card"
            data-event={base}
            data-kind={ownEvent(c.event, c.events) ?? c.event}
            data-count={c.count}
          >
            <Card variation="outlined">
              <Flex justifyContent="space-between" alignItems="baseline" wrap="wrap" gap="xs">
                <Flex alignItems="center" gap="xs" wrap="wrap">
                  <ChangeBadges entry={c} kind={kind} />
                  {badge ? (
                    <Badge size="small" data-testid="change-klass">
                      {badge}
                    </Badge>
                  ) : null}
                  {to ? <AppLink to={to}>{what}</AppLink> : <Text as="span">{what}</Text>}
                </Flex>
                <Text as="span" fontSize="small" variation="tertiary">
                  {formatDateTime(c.at, i18n.language)}
                </Text>
              </Flex>
              <Flex marginTop="xxs">
                <ChangeByline entry={c} />
              </Flex>
            </Card>
          </li>
        );
      })}
    </ol>
  );
}
