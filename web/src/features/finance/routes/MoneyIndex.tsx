// incomes#index, outgos#index, transfers#index, exchanges#index: search in
// the description and the third party; filters by wallet, category, month
// and state; the advanced search; numbered pages — all in the URL. Rows
// can be selected and confirmed in bulk; "n" opens a new record.

import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { IndexSearch } from '../../../components/records/AdvancedSearch';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useRouteHandle } from '../../../lib/route-handle';
import { anyFilter } from '../filters';
import { recordsQuery } from '../api/records';
import { kindOfSet, type MoneyRecord } from '../api/types';
import { byId, walletsQuery } from '../api/wallets';
import { BulkConfirm } from '../components/BulkConfirm';
import { Categories } from '../components/Categories';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { RecordAmount } from '../components/RecordAmount';
import { RecordFilters, useRecordFilters } from '../components/RecordFilters';
import { StateBadge } from '../components/StateBadge';
import { RecordWallets } from '../components/WalletName';

const DEFAULTS = { orderBy: 'posted_at', direction: 'desc' as const };

export function Component() {
  const { t, i18n } = useTranslation();
  const kind = kindOfSet(useRouteHandle().set);
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const order = useMemo(() => ['posted_at', 'created_at', kind.amount, 'description'], [kind.amount]);
  const [params, update] = useIndexParams(DEFAULTS, order);
  const [filters, setFilter, clearFilters] = useRecordFilters();
  const q = useQuery(recordsQuery({ db, kind, filters, orderBy: params.orderBy, direction: params.direction, page: params.page, perPage: params.perPage }));
  const wallets = useQuery(walletsQuery(db));
  const walletMap = useMemo(() => byId(wallets.data), [wallets.data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // A selection belongs to the rows on screen: another page or filter starts afresh.
  const listKey = JSON.stringify([kind.set, filters, params]);
  useEffect(() => setSelected(new Set()), [listKey]);
  useShortcuts({ n: () => navigate(paths.create(db, kind.set)) });

  const categoryHref = (c: string) => `${paths.index(db, kind.set)}?category=${encodeURIComponent(c)}`;
  const columns: Column<MoneyRecord>[] = [
    { key: 'description', label: 'fields.description', render: (r) => r.description?.split('\n')[0] ?? '' },
    { key: 'posted_at', label: 'fields.posted_at', render: (r) => formatDate(r.posted_at, i18n.language) },
    { key: 'wallet', label: kind.twoWallets ? 'finance.columns.wallets' : 'fields.wallet_id', render: (r) => <RecordWallets db={db} record={r} wallets={walletMap} /> },
    ...(kind.party ? [{ key: kind.party, label: `fields.${kind.party}`, render: (r: MoneyRecord) => r[kind.party!] ?? '' }] : []),
    { key: 'categories', label: 'fields.categories', render: (r) => <Categories list={r.categories} toHref={categoryHref} /> },
    { key: 'amount', label: kind.kind === 'exchange' ? 'finance.columns.exchanged' : 'fields.value', render: (r) => <RecordAmount record={r} wallets={walletMap} /> },
    { key: 'state', label: 'finance.columns.state', render: (r) => <StateBadge record={r} /> },
  ];
  const title = t(`nav.${kind.set}`);
  const rows = q.data?.docs ?? [];
  const filtered = anyFilter(filters);
  const noWallets = wallets.isSuccess && wallets.data.length === 0;

  return (
    <Page
      title={title}
      breadcrumbs={<FinanceCrumbs db={db} set={kind.set} />}
      actions={
        <>
          <Button size="small" onClick={() => void q.refetch()} aria-label={t('common.refresh')}>
            <AppIcon name="refresh" />
          </Button>
          <ButtonLink to={paths.create(db, kind.set)} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
            <AppIcon name="plus" /> {t(`finance.${kind.kind}.new`)}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="small">
        {noWallets ? (
          <Alert variation="info" data-testid="no-wallets">
            {t('finance.wallets.needOne')} <AppLink to={paths.create(db, 'wallets')}>{t('finance.wallets.new')}</AppLink>
          </Alert>
        ) : null}
        <IndexSearch key={params.q ? 'search' : 'no-search'} params={params} update={update} order={order} searchable />
        <Text variation="tertiary" fontSize="small">
          {t(kind.party ? `finance.searchHint.${kind.party}` : 'finance.searchHint.description')}
        </Text>
        <RecordFilters db={db} filters={filters} onChange={setFilter} onClear={clearFilters} />
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
        <BulkConfirm db={db} rows={rows} selected={selected} onSelected={setSelected} />
        <RecordTable<MoneyRecord>
          columns={columns}
          rows={rows}
          rowKey={(r) => r._id}
          rowLink={(r) => paths.show(db, kind.set, r._id)}
          rowTestId={(r) => `record-row-${r._id}`}
          loading={q.isPending}
          caption={title}
          selection={{
            selected,
            onChange: setSelected,
            rowLabel: (r) => t('finance.bulk.selectRow', { what: r.description || r._id }),
            allLabel: t('finance.bulk.selectPage'),
          }}
          empty={
            q.isError ? null : (
              <EmptyState
                icon={kind.icon}
                title={filtered ? t('records.noMatches') : t(`finance.${kind.kind}.emptyTitle`)}
                message={filtered ? t('finance.noMatchesMessage') : t(`finance.${kind.kind}.emptyMessage`)}
                testId="records-empty"
                action={
                  <ButtonLink to={paths.create(db, kind.set)} variation="primary">
                    {t(`finance.${kind.kind}.new`)}
                  </ButtonLink>
                }
              />
            )
          }
        />
        <NumberedPaging page={params.page} hasMore={!!q.data?.hasMore} onPage={(p) => update({ page: p === 1 ? null : p })} />
      </Flex>
    </Page>
  );
}
