// The Group's calendar feed (shared/servicedocs): admins get a secret
// address to subscribe to from Google Calendar or Outlook — coming
// maintenances and the due dates of open tickets. Asking again replaces
// the address, so a leaked one can be cut off.

import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { api, enc } from '../../../lib/api';
import { asApiError } from '../../../lib/errors';

export function CalendarCard({ db }: { db: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const link = useMutation({ mutationFn: () => api.post<{ url: string }>(`${enc(db)}/_calendar/link`, {}), onSuccess: () => setCopied(false) });
  const url = link.data?.url;
  return (
    <Card variation="outlined" data-testid="calendar-card">
      <Flex direction="column" gap="small">
        <Heading level={5}>
          <AppIcon name="history" /> {t('accounts.admin.calendar.title')}
        </Heading>
        <Text fontSize="small" variation="secondary">
          {t('accounts.admin.calendar.help')}
        </Text>
        <ErrorAlert error={link.error ? asApiError(link.error) : null} onDismiss={() => link.reset()} />
        {url ? (
          <Flex gap="xs" alignItems="center" wrap="wrap">
            <code className="public-address" data-testid="calendar-url">
              {url}
            </code>
            <Button size="small" variation="link" onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true))}>
              <AppIcon name={copied ? 'check' : 'docs'} /> {copied ? t('accounts.admin.calendar.copied') : t('accounts.admin.calendar.copy')}
            </Button>
          </Flex>
        ) : null}
        <Button size="small" alignSelf="flex-start" onClick={() => link.mutate()} isLoading={link.isPending} data-testid="calendar-link">
          {url ? t('accounts.admin.calendar.replace') : t('accounts.admin.calendar.get')}
        </Button>
        <Text fontSize="small" variation="tertiary">
          {t('accounts.admin.calendar.warning')}
        </Text>
      </Flex>
    </Card>
  );
}
