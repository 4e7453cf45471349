// The recent-changes timeline (SPEC §2 Dashboard): change cards newest first,
// each linking to the record's plural#show route, labelled created, updated
// or destroyed.

import { Badge, Card, Flex, Placeholder, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { AppLink } from '../../../components/RouterLink';
import { formatDateTime } from '../../../lib/format';
import { baseEvent } from '../../../lib/history';
import { recordPath } from '../../../lib/paths';
import type { ChangeCard } from '../api/timeline';

const TONE = { created: 'success', updated: 'info', destroyed: 'error' } as const;

export function Timeline({ db, cards, loading }: { db: string; cards: ChangeCard[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
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
  if (cards.length === 0) {
    return (
      <div data-testid="timeline" data-count={0}>
        <EmptyState icon="history" title={t('dashboard.timeline.empty')} message={t('dashboard.timeline.emptyHelp')} />
      </div>
    );
  }
  return (
    <ol className="timeline" data-testid="timeline" data-count={cards.length}>
      {cards.map((c) => {
        const base = baseEvent(c.event);
        // A module's own event (close, open, comment…) is named beside the base one.
        const own = c.own;
        const to = base === 'destroyed' ? null : recordPath(db, c.itemId);
        const what = c.label || t(`klasses.${c.itemType}`, { defaultValue: c.itemType || c.itemId });
        return (
          <li key={c.key} className={`timeline__item timeline__item--${base}`} data-testid="change-card" data-event={base} data-kind={own ?? c.event}>
            <Card variation="outlined">
              <Flex justifyContent="space-between" alignItems="baseline" wrap="wrap" gap="xs">
                <Flex alignItems="center" gap="xs" wrap="wrap">
                  <Badge size="small" variation={TONE[base]}>
                    {t(`timeline.${base}`)}
                  </Badge>
                  {own ? (
                    <Badge size="small" variation="warning">
                      {t(`timeline.events.${own}`, { defaultValue: own })}
                    </Badge>
                  ) : null}
                  {c.itemType ? <Badge size="small">{t(`klasses.${c.itemType}`, { defaultValue: c.itemType })}</Badge> : null}
                  {to ? <AppLink to={to}>{what}</AppLink> : <Text as="span">{what}</Text>}
                </Flex>
                <Text as="span" fontSize="small" variation="tertiary">
                  {formatDateTime(c.at, i18n.language)}
                </Text>
              </Flex>
              <Text fontSize="small" variation="secondary" marginTop="xxs">
                {t('timeline.by', { who: c.who?.label || c.who?._id || t('timeline.someone') })}
                {c.changed.length > 0
                  ? ` · ${t('timeline.changed', { fields: c.changed.map((f) => t(`fields.${f}`, { defaultValue: f })).join(', ') })}`
                  : ''}
              </Text>
            </Card>
          </li>
        );
      })}
    </ol>
  );
}
