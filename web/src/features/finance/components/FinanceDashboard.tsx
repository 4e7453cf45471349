// The organize3 dashboard's main panel (lib/dashboard-slots): confirmed
// revenues and expenses of the last 30 days or the last 12 months (a
// toggle), totals per currency, and a chart of revenue against expense by
// category for one currency at a time. The chart library is fetched only
// when the chart shows (LazyChart), so the dashboard's chunk stays small.

import { Card, Flex, Heading, Placeholder, SelectField, Table, TableBody, TableCell, TableRow, Text, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { formatDate, formatMoney } from '../../../lib/format';
import { formatUnits, unitsToAmount } from '../../../lib/money';
import { paths } from '../../../lib/paths';
import { periodQuery } from '../api/records';
import { byId, walletsQuery } from '../api/wallets';
import { RANGES, rangeStart, summarize, topCategories, type CurrencySummary, type Range } from '../summary';
import { chartLayout, LazyChart } from '../../../components/charts/LazyChart';
import './finance.css';
import { HeadRow } from '../../../components/HeadRow';

const TOP = 10;
const today = () => new Date().toISOString().slice(0, 10);

function Totals({ s }: { s: CurrencySummary }) {
  const { t, i18n } = useTranslation();
  const m = (units: number) => formatUnits(units, i18n.language, s.currency, s.precision);
  return (
    <Card variation="outlined" data-testid={`finance-total-${s.currency}`} aria-label={s.currency} as="section">
      <Heading level={6} marginBottom="xs">
        {s.currency}
      </Heading>
      <dl className="figure-list">
        <dt>{t('finance.dashboard.income')}</dt>
        <dd className="fin-income" data-testid={`finance-income-${s.currency}`} data-units={s.income}>
          {m(s.income)}
        </dd>
        <dt>{t('finance.dashboard.expense')}</dt>
        <dd className="fin-expense" data-testid={`finance-expense-${s.currency}`} data-units={s.expense}>
          {m(s.expense)}
        </dd>
        <dt>{t('finance.dashboard.net')}</dt>
        <dd className={s.net < 0 ? 'fin-expense' : undefined} data-testid={`finance-net-${s.currency}`} data-units={s.net}>
          {m(s.net)}
        </dd>
      </dl>
    </Card>
  );
}

function CategoryChart({ s, range }: { s: CurrencySummary; range: Range }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows = topCategories(s.categories, TOP, t('finance.dashboard.otherCategories'));
  const name = (c: string) => c || t('finance.dashboard.noCategory');
  const label = t('finance.dashboard.chartLabel', { currency: s.currency, period: t(`finance.dashboard.ranges.${range}`) });
  const money = (units: number) => formatUnits(units, lang, s.currency, s.precision);
  return (
    <LazyChart
      testId="finance-chart"
      tall={rows.length > 6}
      label={label}
      dataKey={`${lang}|${s.currency}|${range}|${rows.map((r) => `${r.category}:${r.income}:${r.expense}`).join(',')}`}
      build={(c) => ({
        type: 'bar',
        data: {
          labels: rows.map((r) => name(r.category)),
          datasets: [
            { label: t('finance.dashboard.income'), data: rows.map((r) => unitsToAmount(r.income, s.precision)), backgroundColor: c.income, borderRadius: 3 },
            { label: t('finance.dashboard.expense'), data: rows.map((r) => unitsToAmount(r.expense, s.precision)), backgroundColor: c.expense, borderRadius: 3 },
          ],
        },
        options: {
          indexAxis: 'y',
          ...chartLayout,
          plugins: {
            legend: { labels: { color: c.text } },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatMoney(Number(item.parsed.x), lang, { currency: s.currency, precision: s.precision })}` } },
          },
          scales: {
            x: { ticks: { color: c.text, callback: (v) => formatMoney(Number(v), lang, { currency: s.currency, precision: 0 }) }, grid: { color: c.grid } },
            y: { ticks: { color: c.text }, grid: { display: false } },
          },
        },
      })}
      table={
        <Table size="small" caption={label}>
          <HeadRow cells={[t('fields.categories'), t('finance.dashboard.income'), t('finance.dashboard.expense')]} />
          <TableBody>
            {s.categories.map((r) => (
              <TableRow key={r.category}>
                <TableCell>{name(r.category)}</TableCell>
                <TableCell>{money(r.income)}</TableCell>
                <TableCell>{money(r.expense)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
}

export default function FinanceDashboard({ db }: { db: string }) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<Range>('30d');
  const [chosen, setChosen] = useState<string | null>(null);
  const end = today();
  const since = rangeStart(range, end);
  const q = useQuery(periodQuery(db, since));
  const wallets = useQuery(walletsQuery(db));
  // The dashboard's refresh button.
  const { refetch } = q;
  const refetchWallets = wallets.refetch;
  useEffect(
    () =>
      onAppEvent('reload', () => {
        void refetch();
        void refetchWallets();
      }),
    [refetch, refetchWallets],
  );
  const summaries = useMemo(() => summarize(q.data ?? [], byId(wallets.data)), [q.data, wallets.data]);
  const current = summaries.find((s) => s.currency === chosen) ?? summaries[0];
  const loading = q.isPending || wallets.isPending;
  return (
    <Flex direction="column" gap="medium" data-testid="finance-dashboard">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <ToggleButtonGroup value={range} isExclusive isSelectionRequired size="small" onChange={(v) => setRange(v as Range)} aria-label={t('finance.dashboard.period')}>
          {RANGES.map((r) => (
            <ToggleButton key={r} value={r} data-testid={`finance-range-${r}`}>
              {t(`finance.dashboard.ranges.${r}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Text fontSize="small" variation="tertiary" data-testid="finance-period">
          {t('finance.dashboard.between', { from: formatDate(since, i18n.language), to: formatDate(end, i18n.language) })}
        </Text>
      </Flex>
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
      {loading ? (
        <Flex direction="column" gap="xs" data-testid="finance-loading">
          <Placeholder />
          <Placeholder />
          <Placeholder size="large" />
        </Flex>
      ) : summaries.length === 0 && !q.isError ? (
        <EmptyState
          icon="wallet"
          title={t('finance.dashboard.emptyTitle')}
          message={t('finance.dashboard.emptyMessage')}
          testId="finance-empty"
          action={
            <Flex gap="small" wrap="wrap" justifyContent="center">
              <ButtonLink to={paths.create(db, 'incomes')} size="small">
                {t('finance.income.new')}
              </ButtonLink>
              <ButtonLink to={paths.create(db, 'outgos')} size="small">
                {t('finance.outgo.new')}
              </ButtonLink>
            </Flex>
          }
        />
      ) : (
        <>
          <div className="fin-totals" role="group" aria-label={t('finance.dashboard.totals')} data-testid="finance-totals">
            {summaries.map((s) => (
              <Totals key={s.currency} s={s} />
            ))}
          </div>
          {current ? (
            <Card variation="outlined" as="section" aria-labelledby="finance-by-category">
              <Flex justifyContent="space-between" alignItems="flex-end" wrap="wrap" gap="small" marginBottom="small">
                <Heading level={5} id="finance-by-category">
                  {t('finance.dashboard.byCategory')}
                </Heading>
                {summaries.length > 1 ? (
                  <SelectField label={t('fields.currency')} size="small" value={current.currency} onChange={(e) => setChosen(e.target.value)} data-testid="finance-currency">
                    {summaries.map((s) => (
                      <option key={s.currency} value={s.currency}>
                        {s.currency}
                      </option>
                    ))}
                  </SelectField>
                ) : null}
              </Flex>
              <CategoryChart s={current} range={range} />
            </Card>
          ) : null}
        </>
      )}
      <Flex gap="medium" wrap="wrap">
        <AppLink to={paths.index(db, 'incomes')}>{t('nav.incomes')}</AppLink>
        <AppLink to={paths.index(db, 'outgos')}>{t('nav.outgos')}</AppLink>
        <AppLink to={paths.index(db, 'wallets')}>{t('nav.wallets')}</AppLink>
      </Flex>
      <Text fontSize="small" variation="tertiary">
        {t('finance.dashboard.note')}
      </Text>
    </Flex>
  );
}
