// The invites tab (SPEC §2, §4): pending memberships with an accept button,
// disabled until the email is confirmed; accepting opens the Group's dashboard.

import { Alert, Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { useMemberships } from '../../../lib/accounts';
import { isEmailConfirmed, type UserDoc } from '../../../lib/current-user';
import { asApiError } from '../../../lib/errors';
import { accountOf, isPendingMembership, type Membership } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { sessionQuery } from '../../../lib/session';
import { setMultipleAccounts } from '../../../lib/startup';
import { acceptInvite } from '../api/memberships';
import { RefreshLink, TabPlaceholder } from './TabParts';

export function InvitesTab({ userId, user }: { userId: string; user: UserDoc | undefined }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useMemberships();
  const invites = (q.data ?? []).filter(isPendingMembership);
  const confirmed = isEmailConfirmed(user);
  const accept = useMutation({
    mutationFn: (m: Membership) => acceptInvite(accountOf(m), m._id),
    onSuccess: async (_res, m) => {
      // The new acc- role is on the session from the next request on.
      await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
      await qc.invalidateQueries({ queryKey: ['memberships', userId] });
      setMultipleAccounts(false);
      navigate(paths.dashboard(accountOf(m)));
    },
  });

  if (q.isPending) return <TabPlaceholder />;
  return (
    <Flex direction="column" gap="small" data-testid="tab-invites">
      <RefreshLink onClick={() => void q.refetch()} busy={q.isFetching} />
      {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
      <ErrorAlert error={accept.error ? asApiError(accept.error) : null} onDismiss={() => accept.reset()} />
      {/* The server shows invitations only to a confirmed address: until
          then this says why none are listed. */}
      {!confirmed ? (
        <Alert variation="warning" data-testid="confirm-to-accept">
          {t('errors.messages.you-need-to-confirm-your-email-to-use-this-feature')}
        </Alert>
      ) : null}
      {invites.length === 0 && !confirmed ? null : invites.length === 0 ? (
        <EmptyState icon="mail" title={t('profile.tabs.invitesEmpty')} message={t('profile.tabs.invitesHelp')} testId="tab-invites-empty" />
      ) : (
        invites.map((m) => (
          <Card key={m._id} variation="outlined" data-testid="invite-card">
            <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
              <Flex direction="column" gap="xxs">
                <Heading level={5}>
                  <AppIcon name="groups" /> {m.name || accountOf(m)}
                </Heading>
                <Text fontSize="small" variation="secondary">
                  {m.created_by?.label ? `${t('profile.invites.by', { inviter: m.created_by.label })} · ` : ''}
                  {t('profile.invites.to', { email: m.email ?? '' })}
                </Text>
              </Flex>
              <Button
                variation="primary"
                isDisabled={!confirmed}
                isLoading={accept.isPending && accept.variables?._id === m._id}
                title={confirmed ? undefined : t('errors.messages.you-need-to-confirm-your-email-to-use-this-feature')}
                onClick={() => accept.mutate(m)}
                data-testid="accept-invite"
              >
                <AppIcon name="check" /> {t('profile.invites.accept')}
              </Button>
            </Flex>
          </Card>
        ))
      )}
    </Flex>
  );
}
