// The "select a group profile" warning (SPEC §2 Home): shown when the user
// must pick one of several Groups; a create card plus one card per membership.

import { Alert, Badge, Card, Flex, Grid, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { setActiveDb } from '../../../lib/active-db';
import { AppIcon } from '../../../components/icons';
import { AppLink } from '../../../components/RouterLink';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import { accountOf, isPendingMembership, membershipsQuery } from '../../../lib/memberships';
import { paths, safeReturnPath } from '../../../lib/paths';

export function SelectGroupWarning({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const q = useQuery(membershipsQuery(userId));
  const memberships = q.data ?? [];
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const back = safeReturnPath(params.get('return'));
  const none = q.isSuccess && memberships.length === 0;
  const onlyInvites = q.isSuccess && memberships.length > 0 && memberships.every(isPendingMembership);
  const unconfirmed = !!user.data && !isEmailConfirmed(user.data);
  // A new account has no Group yet: it is a welcome, not a choice.
  const kind = none ? 'none' : onlyInvites ? 'invited' : 'several';
  return (
    <section aria-labelledby="select-group-title" className="landing-section" data-testid="select-group" data-kind={kind}>
      {unconfirmed ? (
        <Alert variation="info" marginBottom="small" data-testid="check-inbox">
          {t('home.selectGroup.checkInbox', { email: user.data?.unconfirmed_email || user.data?.email || '' })}
        </Alert>
      ) : null}
      <Alert variation={kind === 'several' ? 'warning' : 'info'} marginBottom="medium">
        <Heading level={4} id="select-group-title">
          {t(`home.selectGroup.titles.${kind}`)}
        </Heading>
        <Text>{t(`home.selectGroup.messages.${kind}`)}</Text>
      </Alert>
      <Grid templateColumns={{ base: '1fr', medium: 'repeat(3, 1fr)' }} gap="medium">
        <Card variation="outlined" className="group-card group-card--create">
          <AppLink to={paths.accountNew()}>
            <Flex alignItems="center" gap="small">
              <AppIcon name="plus" size={22} />
              <Text fontWeight="bold">{t('home.selectGroup.create')}</Text>
            </Flex>
          </AppLink>
          <Text variation="secondary" fontSize="small" marginTop="xs">
            {t('home.selectGroup.createHelp')}
          </Text>
        </Card>
        {q.isPending
          ? [0, 1].map((i) => (
              <Card key={i} variation="outlined">
                <Placeholder />
              </Card>
            ))
          : memberships.map((m) => {
              const pending = isPendingMembership(m);
              const account = accountOf(m);
              return (
                <Card key={m._id} variation="outlined" className="group-card" data-testid="group-card">
                  <AppLink
                    to={pending ? paths.invite() : (back ?? paths.dashboard(account))}
                    onClick={pending || !back ? undefined : () => setActiveDb(account)}
                  >
                    <Flex alignItems="center" gap="small">
                      <AppIcon name={m.bookmark ? 'bookmark' : 'groups'} size={22} />
                      <Text fontWeight="bold" className="truncate-10em">
                        {m.name || account}
                      </Text>
                    </Flex>
                  </AppLink>
                  <Flex gap="xs" marginTop="xs">
                    <Badge size="small">{t(`plans.${m['confirmed-plan'] ?? 'free'}`, { defaultValue: m['confirmed-plan'] ?? '' })}</Badge>
                    {pending ? (
                      <Badge size="small" variation="warning">
                        {t('home.selectGroup.pending')}
                      </Badge>
                    ) : null}
                  </Flex>
                </Card>
              );
            })}
      </Grid>
    </section>
  );
}
