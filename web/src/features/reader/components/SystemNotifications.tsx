// The product's announcements (SPEC §7 External) above the feed: entries
// under 16 days old in the UI language (the server filters), dismissible.

import { Alert, Flex, Link } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { notificationsQuery } from '../api/notifications';

export function SystemNotifications({ db }: { db: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'pt-BR' ? 'pt-BR' : 'en';
  const q = useQuery(notificationsQuery(db, locale));
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const list = (q.data?.notifications ?? []).filter((n) => !hidden.has(n.title + n.posted_at));
  if (list.length === 0) return null;
  return (
    <Flex direction="column" gap="xs" data-testid="system-notifications" aria-label={t('reader.notifications')} as="section">
      {list.map((n) => (
        <Alert
          key={n.title + n.posted_at}
          variation="info"
          isDismissible
          onDismiss={() => setHidden((s) => new Set(s).add(n.title + n.posted_at))}
          heading={n.title}
          dismissButtonLabel={t('common.close')}
        >
          {n.summary} <time dateTime={n.posted_at}>({formatDate(n.posted_at, i18n.language)})</time>{' '}
          {n.url ? (
            <Link href={n.url} isExternal rel="noopener noreferrer">
              {t('reader.readMore')}
            </Link>
          ) : null}
        </Alert>
      ))}
    </Flex>
  );
}
