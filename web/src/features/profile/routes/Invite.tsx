// /invite: where an invitation e-mail leads. Signed out, it says what the
// link is for and offers sign-up or sign-in, both coming back here; signed
// in, it lists the invitations with their accept buttons, and accepting
// opens the Group's dashboard — one straight line from the mail to work.

import { Alert, Card, Flex, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { invitationQuery } from '../api/memberships';
import { InvitesTab } from '../components/InvitesTab';

export const INVITE_PATH = '/invite';

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const user = useCurrentUser();
  // The mail's link names the Group and the invitation (issue 22 item 12):
  // the page says who invited whom to what, and sign-up starts with the
  // invited address.
  const [params] = useSearchParams();
  const g = params.get('g') ?? '';
  const m = params.get('m') ?? '';
  const here = g && m ? `${INVITE_PATH}?${new URLSearchParams({ g, m }).toString()}` : INVITE_PATH;
  const invitation = useQuery({ ...invitationQuery(g, m), enabled: !session && !!g && !!m });
  const known = invitation.data;
  if (!session) {
    return (
      <Page title={t('invite.title')} width="medium">
        <Card variation="outlined" data-testid="invite-signed-out">
          <Flex direction="column" gap="medium">
            <Heading level={4}>
              <AppIcon name="mail" /> {known ? t('invite.namedHeading', { inviter: known.inviter || known.email, group: known.group }) : t('invite.heading')}
            </Heading>
            {invitation.isLoading ? <Placeholder /> : null}
            {known ? (
              <Text data-testid="invite-named">{t('invite.named', { email: known.email })}</Text>
            ) : (
              <Text>{t('invite.signedOut')}</Text>
            )}
            <Flex gap="small" wrap="wrap">
              <ButtonLink to={paths.register(here, known?.email)} variation="primary" data-testid="invite-register">
                {t('invite.register')}
              </ButtonLink>
              <ButtonLink to={paths.login(here)} data-testid="invite-login">
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
