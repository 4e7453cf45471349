// The one page a Group the user does not belong to shows (issue 22 item 8),
// instead of the screen's own title, buttons and filters above a
// "Forbidden" error. It names the Group only when the user may know it: an
// invitation to it waits in their personal db (which carries its name).

import { Flex } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { ButtonLink } from '../../components/RouterLink';
import { accountOf, isPendingMembership, membershipsQuery } from '../../lib/memberships';
import { paths } from '../../lib/paths';

export function GroupRefused({ db, userId }: { db: string; userId: string }) {
  const { t } = useTranslation();
  const q = useQuery(membershipsQuery(userId));
  const invitation = (q.data ?? []).find((m) => accountOf(m) === db && isPendingMembership(m));
  const name = invitation?.name?.trim();
  return (
    <Page title={t('groupRefused.title')} hideTitle>
      <EmptyState
        icon="lock"
        testId="group-refused"
        title={name ? t('groupRefused.invitedTitle', { name }) : t('groupRefused.title')}
        message={name ? t('groupRefused.invitedMessage', { name }) : t('groupRefused.message')}
        action={
          <Flex gap="small" wrap="wrap" justifyContent="center">
            {name ? (
              <ButtonLink to={paths.invite()} variation="primary">
                {t('groupRefused.seeInvitation')}
              </ButtonLink>
            ) : null}
            <ButtonLink to={paths.home()} variation={name ? undefined : 'primary'}>
              {t('groupRefused.yourGroups')}
            </ButtonLink>
          </Flex>
        }
      />
    </Page>
  );
}
