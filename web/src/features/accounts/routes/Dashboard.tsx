// dashboard (SPEC §2): the title from the dashboard menu entry, refresh, the
// email-confirmation card, the recent-changes timeline (the main column) and
// the app's side panel: the open-ticket counter and the balances (first on
// a phone).

import { Button, Card, Flex, Grid, Heading, Placeholder, Text, View } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CounterBadge } from '../../../components/CounterBadge';
import { LoadError } from '../../../components/LoadError';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { accountQuery } from '../../../lib/accounts';
import { useDashboardPanel } from '../../../lib/dashboard-slots';
import { useCurrentUser } from '../../../lib/current-user';
import { asApiError } from '../../../lib/errors';
import { emitAppEvent, onAppEvent } from '../../../lib/events';
import { useModule } from '../../../lib/module';
import { useOpenTickets } from '../../../lib/open-tickets';
import { paths } from '../../../lib/paths';
import { timelineQuery } from '../api/timeline';
import { BalancesPanel } from '../components/BalancesPanel';
import { ConfirmEmailCard } from '../components/ConfirmEmailCard';
import { Timeline } from '../components/Timeline';

function OpenTicketsCard({ db }: { db: string }) {
  const { t } = useTranslation();
  const count = useOpenTickets(db, true);
  return (
    <Card variation="outlined" data-testid="open-tickets-card">
      <Flex justifyContent="space-between" alignItems="center">
        <AppLink to={paths.index(db, 'tickets')}>
          <AppIcon name="ticket" /> {t('nav.openTickets')}
        </AppLink>
        <CounterBadge count={count} label={t('nav.openTickets')} />
      </Flex>
    </Card>
  );
}

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const qc = useQueryClient();
  const module = useModule();
  const user = useCurrentUser();
  const account = useQuery(accountQuery(db));
  // A module with its own main-column panel (the reader's feed) shows it
  // instead of the timeline.
  const Panel = useDashboardPanel(module);
  const timeline = useQuery({ ...timelineQuery(db), enabled: !Panel });
  const { refetch } = timeline;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['account', db] });
    void qc.invalidateQueries({ queryKey: ['balances', db] });
    emitAppEvent('reload');
  };

  const feedError = timeline.isError ? asApiError(timeline.error) : null;
  return (
    <Page
      title={t('nav.dashboard')}
      actions={
        <>
          <Button size="small" onClick={refresh} isLoading={timeline.isFetching} data-testid="dashboard-refresh">
            <AppIcon name="refresh" /> {t('common.refresh')}
          </Button>
          <ButtonLink to={paths.admin(db)} size="small" data-testid="to-admin">
            <AppIcon name="admin" /> {t('nav.admin')}
          </ButtonLink>
        </>
      }
    >
      {account.data?.name ? (
        <Text variation="secondary" marginTop="-0.75rem" marginBottom="medium" data-testid="dashboard-group-name">
          {account.data.name}
        </Text>
      ) : null}
      <ConfirmEmailCard user={user.data} />
      <Grid templateColumns={{ base: '1fr', large: '2fr 1fr' }} gap="large">
        {/* First on a phone (issue 22 item 9): what is open and what is in
            the bank come before the history; beside it from large screens. */}
        <Flex as="aside" direction="column" gap="medium" aria-label={t('dashboard.side')} column={{ base: '1', large: '2' }} row="1" data-testid="dashboard-side">
          {module === 'ticket' ? <OpenTicketsCard db={db} /> : null}
          <BalancesPanel db={db} />
        </Flex>
        <View as="section" aria-labelledby="recent-changes" column="1" row={{ base: '2', large: '1' }}>
          <Heading level={4} id="recent-changes" marginBottom="small">
            {Panel ? t(`dashboard.panel.${module}`) : t('dashboard.timeline.title')}
          </Heading>
          {Panel ? (
            <Suspense fallback={<Placeholder size="large" />}>
              <Panel db={db} />
            </Suspense>
          ) : feedError ? (
            <LoadError error={feedError} onRetry={() => void refetch()} icon="history" testId="timeline-error" />
          ) : (
            <Timeline db={db} cards={timeline.data ?? []} loading={timeline.isPending} />
          )}
        </View>
      </Grid>
    </Page>
  );
}
