// admin (SPEC §2 Admin): breadcrumb back to the dashboard, refresh, tiles by
// app, the profile, features, phone and address cards, and for the ticket app
// the two priority bars. Only admins see the edit and new buttons (SPEC §6).

import { Button, Card, Flex, Grid, Text } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RRLink, useParams } from 'react-router';
import { Crumbs } from '../../../components/Crumbs';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { accountQuery, useIsAdmin } from '../../../lib/accounts';
import { emitAppEvent } from '../../../lib/events';
import { formatNumber } from '../../../lib/format';
import { useModule } from '../../../lib/module';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { subGroupsQuery } from '../api/sub-groups';
import { groupedQuery } from '../api/views';
import { AccountProfileCard } from '../components/AccountProfileCard';
import { CalendarCard } from '../components/CalendarCard';
import { ContactsCard } from '../components/ContactsCard';
import { FeaturesCard } from '../components/FeaturesCard';
import { PriorityBars } from '../components/PriorityBars';
import { adminTiles } from '../tiles';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const qc = useQueryClient();
  const session = useSession();
  const module = useModule();
  const { admin } = useIsAdmin(db);
  const account = useQuery(accountQuery(db));
  const subGroups = useQuery({ ...subGroupsQuery(session?.userId ?? '', db), enabled: !!session });
  const counts = useQuery(groupedQuery(db, 'count-by-klass'));
  const tiles = adminTiles(module, db, { hasSubGroups: (subGroups.data ?? []).length > 0 });

  const refresh = () => {
    for (const key of ['account', 'account-config', 'contacts', 'view', 'sub-groups', 'security']) {
      void qc.invalidateQueries({ queryKey: [key] });
    }
    emitAppEvent('reload');
  };

  return (
    <Page
      title={t('nav.admin')}
      breadcrumbs={<Crumbs label={t('records.breadcrumbs')} items={[{ label: t('nav.dashboard'), to: paths.dashboard(db) }, { label: t('accounts.admin.crumb') }]} />}
      actions={
        <Button size="small" onClick={refresh} data-testid="admin-refresh">
          <AppIcon name="refresh" /> {t('common.refresh')}
        </Button>
      }
    >
      <Grid as="ul" className="tile-grid plain-list" templateColumns={{ base: 'repeat(2, 1fr)', medium: 'repeat(4, 1fr)', large: 'repeat(6, 1fr)' }} gap="small" marginBottom="large" data-testid="admin-tiles">
        {tiles.map((tile) => {
          const n = tile.klass ? counts.data?.[tile.klass] : undefined;
          return (
            <li key={tile.key}>
              <RRLink to={tile.to} className="tile" data-testid={`tile-${tile.key}`}>
                <AppIcon name={tile.icon} size={24} />
                <span className="tile__label">{t(tile.label)}</span>
                {n !== undefined ? <span className="tile__count">{formatNumber(n, i18n.language, 0)}</span> : null}
              </RRLink>
            </li>
          );
        })}
      </Grid>
      <Grid templateColumns={{ base: '1fr', large: 'repeat(2, 1fr)' }} gap="medium" alignItems="start">
        <AccountProfileCard account={account.data} loading={account.isPending} admin={admin} />
        <FeaturesCard db={db} module={module} admin={admin} />
        <ContactsCard db={db} kind="phones" admin={admin} />
        <ContactsCard db={db} kind="addresses" admin={admin} />
        {module === 'ticket' ? <PriorityBars db={db} /> : null}
        {module === 'ticket' && admin ? <CalendarCard db={db} /> : null}
        {!admin ? (
          <Card variation="outlined">
            <Flex gap="small" alignItems="center">
              <AppIcon name="lock" />
              <Text variation="secondary">{t('accounts.admin.membersOnly')}</Text>
            </Flex>
          </Card>
        ) : null}
      </Grid>
    </Page>
  );
}
