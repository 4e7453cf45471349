// subscription#usage (/usage, SPEC §2): the Group's records and storage per
// klass over the last 90 days (one snapshot a day), as a chart or a table,
// by size or by record count; both choices live in the URL (?view=, ?by=).

import { Flex, Placeholder, Text, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { useActiveDb } from '../../../lib/active-db';
import { asApiError } from '../../../lib/errors';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { USAGE_DAYS, usageQuery } from '../api/usage';
import { UsageChart } from '../components/UsageChart';
import { usageSeries, type Measure, type UsageSeries } from '../usage';
import '../components/billing.css';
import { useLatestSearchParams } from '../../../lib/search-params';

type View = 'chart' | 'table';

function UsageTable({ series, measure, caption }: { series: UsageSeries; measure: Measure; caption: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fmt = (v: number) => (measure === 'bytes' ? formatBytes(v, lang) : formatNumber(v, lang, 0));
  const rows = series.dates.map((d, i) => ({ d, i })).reverse();
  return (
    <div className="table-scroll billing-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="compare usage-table" data-testid="usage-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('billing.usage.date')}</th>
            <th scope="col">{t('billing.usage.total')}</th>
            {series.klasses.map((k) => (
              <th scope="col" key={k}>
                {k}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ d, i }) => (
            <tr key={d} data-testid="usage-row">
              <th scope="row">{formatDate(d, lang)}</th>
              <td>{fmt(series.totals[i]!)}</td>
              {series.klasses.map((k) => (
                <td key={k}>{fmt(series.values[k]![i]!)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Component() {
  const { t, i18n } = useTranslation();
  const db = useActiveDb() ?? '';
  const [params, setParams] = useLatestSearchParams();
  const view: View = params.get('view') === 'table' ? 'table' : 'chart';
  const measure: Measure = params.get('by') === 'records' ? 'records' : 'bytes';
  const q = useQuery({ ...usageQuery(db), enabled: !!db });
  const lang = i18n.language;
  const set = (k: string, v: string) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        n.set(k, v);
        return n;
      },
      { replace: true },
    );
  const series = q.data ? usageSeries(q.data.days ?? [], measure) : null;
  const last = series && series.dates.length ? series.dates.length - 1 : -1;
  const fmt = (v: number) => (measure === 'bytes' ? formatBytes(v, lang) : formatNumber(v, lang, 0));
  const label =
    series && last >= 0
      ? t(measure === 'bytes' ? 'billing.usage.labelBytes' : 'billing.usage.labelRecords', {
          from: formatDate(series.dates[0], lang),
          to: formatDate(series.dates[last], lang),
          total: fmt(series.totals[last]!),
        })
      : '';
  return (
    <Page title={t('nav.usage')} actions={<ButtonLink to={paths.billing()} size="small">{t('nav.billing')}</ButtonLink>}>
      <Flex direction="column" gap="medium">
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
          <ToggleButtonGroup value={view} isExclusive isSelectionRequired size="small" onChange={(v) => set('view', String(v))} aria-label={t('billing.usage.view')}>
            <ToggleButton value="chart" data-testid="usage-view-chart">
              {t('billing.usage.chart')}
            </ToggleButton>
            <ToggleButton value="table" data-testid="usage-view-table">
              {t('billing.usage.table')}
            </ToggleButton>
          </ToggleButtonGroup>
          <ToggleButtonGroup value={measure} isExclusive isSelectionRequired size="small" onChange={(v) => set('by', String(v))} aria-label={t('billing.usage.measure')}>
            <ToggleButton value="bytes" data-testid="usage-by-bytes">
              {t('billing.usage.bySize')}
            </ToggleButton>
            <ToggleButton value="records" data-testid="usage-by-records">
              {t('billing.usage.byRecords')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Flex>
        <Text variation="secondary" fontSize="small">
          {t('billing.usage.help', { days: USAGE_DAYS })}
        </Text>
        {q.isPending ? (
          <Placeholder height="16rem" />
        ) : q.isError ? (
          <LoadError error={asApiError(q.error)} onRetry={() => void q.refetch()} testId="usage-error" />
        ) : !series || series.dates.length === 0 ? (
          <EmptyState icon="usage" title={t('billing.usage.emptyTitle')} message={t('billing.usage.emptyMessage')} testId="usage-empty" />
        ) : (
          <>
            <Text data-testid="usage-summary">{label}</Text>
            {view === 'chart' ? <UsageChart series={series} measure={measure} label={label} /> : <UsageTable series={series} measure={measure} caption={label} />}
          </>
        )}
      </Flex>
    </Page>
  );
}
