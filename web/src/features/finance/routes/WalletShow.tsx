// wallets#show: the wallet's figures (balance, pending, after pending, a
// card's available credit, the opening balance), its balance over time,
// its records of each kind (paged, the kind and page in the URL), comments
// and history.

import { Badge, Flex, Heading, Text, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { MoneyText } from '../../../components/records/Money';
import { NumberedPaging } from '../../../components/records/Paging';
import { DetailList, type DetailRow } from '../../../components/records/RecordShow';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { walletRecordsQuery } from '../api/records';
import { KIND_LIST, KINDS, SCOPE, type MoneyKind, type MoneyRecord, type Wallet, type WalletFigures } from '../api/types';
import { byId, figuresQuery, walletQuery, walletsQuery } from '../api/wallets';
import { BalanceChart } from '../components/BalanceChart';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { RecordAmount } from '../components/RecordAmount';
import { StateBadge } from '../components/StateBadge';
import { RecordWallets } from '../components/WalletName';
import { useLatestSearchParams } from '../../../lib/search-params';

const PER_PAGE = 10;

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="fin-figure" data-testid={testId}>
      <div className="fin-figure__label">{label}</div>
      <div className="fin-figure__value">{children}</div>
    </div>
  );
}

function Figures({ wallet, figures }: { wallet: Wallet; figures: WalletFigures | undefined }) {
  const { t } = useTranslation();
  const m = (units: number | undefined) => <MoneyText units={units ?? 0} currency={wallet.currency} precision={wallet.precision} />;
  return (
    <div className="fin-figures" role="group" aria-label={t('finance.figures.label')}>
      <Figure label={t('fields.balance')} testId={`wallet-balance-${wallet._id}`}>
        {m(figures?.balance ?? wallet.start_balance)}
      </Figure>
      <Figure label={t('finance.figures.pending')} testId="wallet-figure-pending">
        {m(figures?.pending_transactions)}
      </Figure>
      <Figure label={t('finance.figures.afterPending')} testId="wallet-figure-after-pending">
        {m(figures?.balance_after_pending ?? wallet.start_balance)}
      </Figure>
      {wallet.card ? (
        <Figure label={t('finance.figures.availableCredit')} testId="wallet-figure-credit">
          {m(figures?.available_credit)}
        </Figure>
      ) : null}
    </div>
  );
}

function WalletRecords({ db, wallet }: { db: string; wallet: Wallet }) {
  const { t, i18n } = useTranslation();
  const [sp, setSp] = useLatestSearchParams();
  const kindName = (sp.get('kind') ?? 'income') as MoneyKind;
  const kind = KINDS[kindName] ?? KINDS.income;
  const page = Math.max(1, Number.parseInt(sp.get('page') ?? '1', 10) || 1);
  const q = useQuery(walletRecordsQuery(db, wallet._id, kind, page, PER_PAGE));
  const wallets = useQuery(walletsQuery(db));
  const walletMap = useMemo(() => byId(wallets.data), [wallets.data]);
  const go = (patch: Record<string, string | null>) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace: true },
    );
  const columns: Column<MoneyRecord>[] = [
    { key: 'description', label: 'fields.description', render: (r) => r.description?.split('\n')[0] ?? '' },
    { key: 'posted_at', label: 'fields.posted_at', render: (r) => formatDate(r.posted_at, i18n.language) },
    ...(kind.twoWallets ? [{ key: 'wallets', label: 'finance.columns.wallets', render: (r: MoneyRecord) => <RecordWallets db={db} record={r} wallets={walletMap} /> }] : []),
    { key: 'amount', label: 'fields.value', render: (r) => <RecordAmount record={r} wallets={walletMap} /> },
    { key: 'state', label: 'finance.columns.state', render: (r) => <StateBadge record={r} /> },
  ];
  const listHref = `${paths.index(db, kind.set)}?wallet=${encodeURIComponent(wallet._id)}`;
  const newHref = `${paths.create(db, kind.set)}?${kind.twoWallets ? 'source' : 'wallet'}=${encodeURIComponent(wallet._id)}`;
  return (
    <Flex direction="column" gap="small" as="section" aria-labelledby="wallet-records" data-testid="wallet-records">
      <Heading level={5} id="wallet-records">
        {t('finance.wallets.records')}
      </Heading>
      <ToggleButtonGroup className="fin-kind-toggle" value={kind.kind} isExclusive isSelectionRequired size="small" onChange={(v) => go({ kind: v === 'income' ? null : String(v), page: null })} aria-label={t('finance.wallets.recordsKind')}>
        {KIND_LIST.map((k) => (
          <ToggleButton key={k.kind} value={k.kind} data-testid={`wallet-records-${k.kind}`}>
            <AppIcon name={k.icon} /> {t(`nav.${k.set}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
      <RecordTable<MoneyRecord>
        columns={columns}
        rows={q.data?.docs ?? []}
        rowKey={(r) => r._id}
        rowLink={(r) => paths.show(db, kind.set, r._id)}
        loading={q.isPending}
        caption={t(`nav.${kind.set}`)}
        empty={
          q.isError ? null : (
            <EmptyState
              icon={kind.icon}
              title={t(`finance.${kind.kind}.emptyTitle`)}
              action={
                <ButtonLink to={newHref} size="small" variation="primary">
                  {t(`finance.${kind.kind}.new`)}
                </ButtonLink>
              }
            />
          )
        }
      />
      <NumberedPaging page={page} hasMore={!!q.data?.hasMore} onPage={(p) => go({ page: p === 1 ? null : String(p) })} />
      <Flex gap="small" wrap="wrap">
        <AppLink to={listHref}>{t('finance.wallets.allOf', { what: t(`nav.${kind.set}`) })}</AppLink>
        <AppLink to={newHref}>{t(`finance.${kind.kind}.new`)}</AppLink>
      </Flex>
    </Flex>
  );
}

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(walletQuery(db, id));
  const figures = useQuery(figuresQuery(db));
  const w = q.data;
  const title = w?.name || t('finance.wallets.one');
  const money = (units: number | undefined) => (typeof units === 'number' ? <MoneyText units={units} currency={w?.currency} precision={w?.precision} /> : '');
  const rows: DetailRow[] = w
    ? [
        { key: 'name', label: 'fields.name', value: w.name ?? '' },
        { key: 'label', label: 'fields.label', value: w.label ?? '' },
        { key: 'currency', label: 'fields.currency', value: w.currency ?? '' },
        { key: 'precision', label: 'fields.precision', value: String(w.precision ?? 2) },
        { key: 'start_balance', label: 'fields.start_balance', value: money(w.start_balance ?? 0) },
        { key: 'active', label: 'fields.active', value: w.active === false ? t('common.no') : t('common.yes') },
        { key: 'card', label: 'fields.card', value: w.card ? t('common.yes') : t('common.no') },
        ...(w.card ? [{ key: 'card_limit', label: 'fields.card_limit', value: money(w.card_limit ?? 0) }] : []),
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(w.created_at, i18n.language) },
      ]
    : [];
  return (
    <ShowFrame
      scope={SCOPE}
      itemType="Wallet"
      title={title}
      breadcrumbs={<FinanceCrumbs db={db} set="wallets" current={w ? title : undefined} />}
      doc={w}
      error={q.error}
      editTo={paths.edit(db, 'wallets', id)}
      afterDelete={paths.index(db, 'wallets')}
      actions={
        w ? (
          <>
            <ButtonLink to={`${paths.create(db, 'incomes')}?wallet=${encodeURIComponent(id)}`} size="small">
              <AppIcon name="income" /> {t('finance.income.new')}
            </ButtonLink>
            <ButtonLink to={`${paths.create(db, 'outgos')}?wallet=${encodeURIComponent(id)}`} size="small">
              <AppIcon name="outgo" /> {t('finance.outgo.new')}
            </ButtonLink>
          </>
        ) : null
      }
      top={
        w ? (
          <Flex direction="column" gap="small">
            <Flex gap="xs" wrap="wrap" alignItems="center">
              <Badge size="small">{w.currency}</Badge>
              {w.active === false ? <Badge size="small" variation="warning">{t('finance.wallets.inactive')}</Badge> : null}
              {w.label ? <Text variation="secondary">{w.label}</Text> : null}
            </Flex>
            {figures.isError ? <ErrorAlert error={asApiError(figures.error)} /> : <Figures wallet={w} figures={figures.data?.[id]} />}
          </Flex>
        ) : null
      }
      details={
        <Flex direction="column" gap="large">
          {w ? (
            <section aria-labelledby="balance-over-time">
              <Heading level={5} id="balance-over-time" marginBottom="xs">
                {t('finance.wallets.overTime')}
              </Heading>
              <BalanceChart db={db} wallet={w} />
            </section>
          ) : null}
          {w ? <WalletRecords db={db} wallet={w} /> : null}
          <DetailList rows={rows} loading={q.isPending} />
        </Flex>
      }
    />
  );
}
