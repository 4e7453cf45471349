// /invite: where an invitation e-mail leads. Signed out, it says what the
// link is for and offers sign-up or sign-in, both coming back here; signed
// in, it lists the invitations with their accept buttons, and accepting
// opens the Group's dashboard — one straight line from the mail to work.

import { Alert, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { InvitesTab } from '../components/InvitesTab';

export const INVITE_PATH = '/invite';

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const user = useCurrentUser();
  if (!session) {
    return (
      <Page title={t('invite.title')} width="medium">
        <Card variation="outlined" data-testid="invite-signed-out">
          <Flex direction="column" gap="medium">
            <Heading level={4}>
              <AppIcon name="mail" /> {t('invite.heading')}
            </Heading>
            <Text>{t('invite.signedOut')}</Text>
            <Flex gap="small" wrap="wrap">
              <ButtonLink to={paths.register(INVITE_PATH)} variation="primary" data-testid="invite-register">
                {t('invite.register')}
              </ButtonLink>
              <ButtonLink to={paths.login(INVITE_PATH)} data-testid="invite-login">
                {t('invite.login')}
              </ButtonLink>
            </Flex>
          </Flex>
        </Card>
      </Page>
    );
  }
  const unconfirmed = user.data && !isEmailConfirmed(user.data);
  return (
    <Page title={t('invite.title')} width="medium">
      {unconfirmed ? (
        <Alert variation="info" marginBottom="medium" data-testid="invite-check-inbox">
          {t('invite.checkInbox', { email: user.data?.unconfirmed_email || user.data?.email || '' })}
        </Alert>
      ) : null}
      <InvitesTab userId={session.userId} user={user.data} />
    </Page>
  );
}
