// The dashboard card asking to confirm the email (SPEC §2), with the days
// left before access is lost (SPEC §9).

import { Alert, Flex, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/RouterLink';
import { isEmailConfirmed, type UserDoc } from '../../../lib/current-user';
import { paths } from '../../../lib/paths';
import { confirmationDeadline } from '../deadline';

export function ConfirmEmailCard({ user, now }: { user: UserDoc | undefined; now?: number }) {
  const { t } = useTranslation();
  if (!user || isEmailConfirmed(user)) return null;
  const d = confirmationDeadline(user.confirmation_sent_at ?? user.created_at, now);
  const left =
    d.kind === 'days'
      ? t('dashboard.confirm.daysLeft', { count: d.days })
      : d.kind === 'one'
        ? t('dashboard.confirm.oneDayLeft')
        : d.kind === 'over'
          ? t('dashboard.confirm.over')
          : '';
  return (
    <Alert variation="warning" heading={t('dashboard.confirm.title')} data-testid="confirm-email-card" marginBottom="medium">
      <Flex direction="column" gap="xs">
        <Text>{t('dashboard.confirm.message', { email: user.unconfirmed_email || user.email || '' })}</Text>
        {left ? (
          <Text fontWeight="bold" data-testid="confirm-days-left">
            {left}
          </Text>
        ) : null}
        <div>
          <ButtonLink to={paths.confirmNew()} size="small">
            {t('dashboard.confirm.resend')}
          </ButtonLink>
        </div>
      </Flex>
    </Alert>
  );
}
