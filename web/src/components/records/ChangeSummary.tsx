// What a change card says, in plain words (issue 22 item 9): the event,
// who made it (a process by its name, never its module code), the fields
// its module labelled (never internal ones), and how many changes a
// collapsed card stands for. Shared by the dashboard's timeline and a
// record's History.

import { Badge, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { baseEvent, ownEvent, type ChangeEntry } from '../../lib/history';
import { useLabels } from './labels';

const TONE = { created: 'success', updated: 'info', destroyed: 'error' } as const;

/**
 * ChangeBadges: the base event, and a module's own event beside it (closed,
 * confirmed, file uploaded…) unless it only repeats the record's kind
 * (a comment's "Comment").
 */
export function ChangeBadges({ entry, kind = '' }: { entry: ChangeEntry; kind?: string }) {
  const { t } = useTranslation();
  const base = baseEvent(entry.event);
  const ownEv = ownEvent(entry.event, entry.events);
  const own = ownEv && t(`timeline.events.${ownEv}`, { defaultValue: t('timeline.updated') }) !== kind ? ownEv : null;
  return (
    <>
      <Badge size="small" variation={TONE[base]}>
        {t(`timeline.${base}`)}
      </Badge>
      {own ? (
        <Badge size="small" variation="warning" data-testid="change-event">
          {t(`timeline.events.${own}`, { defaultValue: t('timeline.updated') })}
        </Badge>
      ) : null}
    </>
  );
}

/** ChangeByline: "by Ana · changed Status, Priority · 3 changes". */
export function ChangeByline({ entry, withWho = true }: { entry: ChangeEntry; withWho?: boolean }) {
  const { t } = useTranslation();
  const words = useLabels();
  const fields = baseEvent(entry.event) === 'updated' ? words.fields(entry.itemType, entry.changed) : [];
  const parts = [
    withWho ? t('timeline.by', { who: words.who(entry.who) }) : '',
    fields.length > 0 ? t('timeline.changed', { fields: fields.join(', ') }) : '',
    entry.count > 1 ? t('timeline.changes', { count: entry.count }) : '',
  ].filter(Boolean);
  return (
    <Text as="span" fontSize="small" variation="secondary" data-testid="change-byline">
      {parts.join(' · ')}
    </Text>
  );
}
