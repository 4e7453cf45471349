// The "select a group profile" warning (SPEC §2 Home): shown when the user
// must pick one of several Groups; a create card plus one card per membership.

import { Alert, Badge, Card, Flex, Grid, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { AppLink } from '../../../components/RouterLink';
import { accountOf, isPendingMembership, membershipsQuery } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';

export function SelectGroupWarning({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const q = useQuery(membershipsQuery(userId));
  const memberships = q.data ?? [];
  const none = q.isSuccess && memberships.length === 0;
  return (
    <section aria-labelledby="select-group-title" className="landing-section" data-testid="select-group">
      <Alert variation="warning" marginBottom="medium">
        <Heading level={4} id="select-group-title">
          {t('home.selectGroup.title')}
        </Heading>
        <Text>{none ? t('home.selectGroup.none') : t('home.selectGroup.message')}</Text>
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
                  <AppLink to={pending ? paths.profile('invites') : paths.dashboard(account)}>
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
