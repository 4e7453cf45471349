// A public link of a record (a ticket's status page, an estimate's approval
// page): the URL with a copy button and, for admins, "re-issue" — which
// kills the old link — behind a confirmation.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { useIsAdmin } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';

export function PublicLink({ db, url, label, onReissue, testId }: { db: string; url: string; label: string; onReissue: () => Promise<unknown>; testId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { admin } = useIsAdmin(db);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const reissue = useMutation({
    mutationFn: onReissue,
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
    },
  });
  return (
    <Flex direction="column" gap="xxs" data-testid={testId}>
      <Text fontSize="small" fontWeight="bold">
        {label}
      </Text>
      <Flex gap="xs" alignItems="center" wrap="wrap">
        <a href={url} target="_blank" rel="noopener noreferrer" className="public-link" data-testid={`${testId}-url`}>
          {url}
        </a>
        <Button
          size="small"
          variation="link"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
          aria-label={t('docs.copyLink')}
        >
          <AppIcon name={copied ? 'check' : 'docs'} /> {copied ? t('docs.copied') : t('docs.copy')}
        </Button>
        {admin && !confirming ? (
          <Button size="small" variation="link" onClick={() => setConfirming(true)} data-testid={`${testId}-reissue`}>
            <AppIcon name="refresh" /> {t('docs.reissue')}
          </Button>
        ) : null}
      </Flex>
      {confirming ? (
        <Flex gap="xs" alignItems="center" wrap="wrap">
          <Text fontSize="small">{t('docs.reissueWarning')}</Text>
          <Button size="small" variation="destructive" onClick={() => reissue.mutate()} isLoading={reissue.isPending} data-testid={`${testId}-reissue-confirm`}>
            {t('docs.reissueConfirm')}
          </Button>
          <Button size="small" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
        </Flex>
      ) : null}
      <ErrorAlert error={reissue.error ? asApiError(reissue.error) : null} onDismiss={() => reissue.reset()} />
    </Flex>
  );
}
