// A public link of a record (a ticket's status page, an estimate's approval
// page): the URL with a copy button, optional "send by WhatsApp" and "send
// by e-mail" to the customer, and, for admins, "re-issue" — which kills the
// old link — behind a confirmation. onShare runs whenever the link goes out
// (copied or sent): an estimate's draft then becomes sent.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { useIsAdmin } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';

export function PublicLink({
  db,
  url,
  label,
  onReissue,
  testId,
  whatsapp,
  email,
  onShare,
}: {
  db: string;
  url: string;
  label: string;
  onReissue: () => Promise<unknown>;
  testId: string;
  /** wa.me link carrying the URL to the customer (null: no phone). */
  whatsapp?: string | null;
  /** mailto: link carrying the URL (null: no e-mail). */
  email?: string | null;
  onShare?: () => void;
}) {
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
            onShare?.();
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
          aria-label={t('docs.copyLink')}
          data-testid={`${testId}-copy`}
        >
          <AppIcon name={copied ? 'check' : 'docs'} /> {copied ? t('docs.copied') : t('docs.copy')}
        </Button>
        {whatsapp ? (
          <a href={whatsapp} target="_blank" rel="noopener noreferrer" className="amplify-button amplify-button--small amplify-button--link" onClick={() => onShare?.()} data-testid={`${testId}-whatsapp`}>
            <AppIcon name="external" /> {t('docs.sendWhatsApp')}
          </a>
        ) : null}
        {email ? (
          <a href={email} className="amplify-button amplify-button--small amplify-button--link" onClick={() => onShare?.()} data-testid={`${testId}-email`}>
            <AppIcon name="mail" /> {t('docs.sendEmail')}
          </a>
        ) : null}
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
