// wallets#index: every wallet as a card with the balance the server keeps
// (the by-wallet view), what is pending and a card's available credit;
// search by name or label and the active filter in the URL; "n" opens a
// new wallet.

import { Button, Flex, Grid, Placeholder, SearchField, SelectField, Card } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { figuresQuery, walletsQuery } from '../api/wallets';
import type { Wallet } from '../api/types';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { WalletCard } from '../components/WalletCard';
import { useLatestSearchParams } from '../../../lib/search-params';

export const ACTIVE_FILTERS = ['active', 'inactive', 'all'] as const;
export type ActiveFilter = (typeof ACTIVE_FILTERS)[number];

/** filterWallets: the wallets the index shows for a search and the active filter. */
export function filterWallets(wallets: readonly Wallet[], q: string, active: ActiveFilter): Wallet[] {
  const text = q.trim().toLowerCase();
  return wallets.filter((w) => {
    if (active === 'active' && w.active === false) return false;
    if (active === 'inactive' && w.active !== false) return false;
    if (!text) return true;
    return [w.name, w.label, w.currency].some((f) => (f ?? '').toLowerCase().includes(text));
  });
}

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const [sp, setSp] = useLatestSearchParams();
  const q = sp.get('q') ?? '';
  const activeParam = sp.get('active') ?? '';
  const active: ActiveFilter = (ACTIVE_FILTERS as readonly string[]).includes(activeParam) ? (activeParam as ActiveFilter) : 'active';
  const wallets = useQuery(walletsQuery(db));
  const figures = useQuery(figuresQuery(db));
  useShortcuts({ n: () => navigate(paths.create(db, 'wallets')) });
  const setParam = (k: string, v: string | null) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (v) next.set(k, v);
        else next.delete(k);
        return next;
      },
      { replace: true },
    );
  const shown = filterWallets(wallets.data ?? [], q, active);
  const filtered = !!q || active !== 'active';
  const refresh = () => {
    void wallets.refetch();
    void figures.refetch();
  };
  return (
    <Page
      title={t('nav.wallets')}
      breadcrumbs={<FinanceCrumbs db={db} set="wallets" />}
      actions={
        <>
          <Button size="small" onClick={refresh} aria-label={t('common.refresh')} isLoading={figures.isFetching && !figures.isPending}>
            <AppIcon name="refresh" />
          </Button>
          <ButtonLink to={paths.create(db, 'wallets')} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
            <AppIcon name="plus" /> {t('finance.wallets.new')}
          </ButtonLink>
        </>
      }
    >
      <Flex direction="column" gap="medium">
        <Flex gap="small" wrap="wrap" alignItems="flex-end" role="search">
          <SearchField
            key={q ? 'search' : 'no-search'}
            label={t('records.search')}
            labelHidden
            placeholder={t('finance.wallets.searchPlaceholder')}
            defaultValue={q}
            size="small"
            onSubmit={(v) => setParam('q', v.trim() || null)}
            onClear={() => setParam('q', null)}
          />
          <SelectField label={t('finance.wallets.show')} name="filter-active" size="small" value={active} onChange={(e) => setParam('active', e.target.value === 'active' ? null : e.target.value)} data-testid="filter-active">
            {ACTIVE_FILTERS.map((a) => (
              <option key={a} value={a}>
                {t(`finance.wallets.activeFilter.${a}`)}
              </option>
            ))}
          </SelectField>
        </Flex>
        {wallets.isError ? <ErrorAlert error={asApiError(wallets.error)} onDismiss={() => void wallets.refetch()} /> : null}
        {figures.isError ? <ErrorAlert error={asApiError(figures.error)} onDismiss={() => void figures.refetch()} /> : null}
        {wallets.isPending ? (
          <Grid className="wallet-grid" aria-busy>
            {[0, 1, 2].map((i) => (
              <Card key={i} variation="outlined">
                <Placeholder size="large" />
              </Card>
            ))}
          </Grid>
        ) : shown.length === 0 && !wallets.isError ? (
          <EmptyStateNext
            icon="wallet"
            title={filtered ? t('records.noMatches') : t('finance.wallets.emptyTitle')}
            message={filtered ? t('finance.noMatchesMessage') : t('finance.wallets.emptyMessage')}
            testId="records-empty"
            next={{ to: paths.create(db, 'wallets'), label: t('finance.wallets.new') }}
          />
        ) : (
          <div className="wallet-grid" data-testid="wallet-list">
            {shown.map((w) => (
              <WalletCard key={w._id} db={db} wallet={w} figures={figures.data?.[w._id]} loadingFigures={figures.isPending} />
            ))}
          </div>
        )}
      </Flex>
    </Page>
  );
}
