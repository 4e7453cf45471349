// A wallet's balance over time: its opening balance, then the end of each
// day on which a confirmed, reviewed record moved it (computed here from
// the records; the server keeps only the current figures).

import { Flex, Placeholder, Table, TableBody, TableCell, TableRow, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { formatDate, formatMoney } from '../../../lib/format';
import { formatUnits, unitsToAmount, validPrecision } from '../../../lib/money';
import { balanceSeries } from '../balance';
import { walletMovesQuery } from '../api/records';
import type { Wallet } from '../api/types';
import { chartLayout, LazyChart } from '../../../components/charts/LazyChart';
import { HeadRow } from '../../../components/HeadRow';

const today = () => new Date().toISOString().slice(0, 10);

export function BalanceChart({ db, wallet }: { db: string; wallet: Wallet }) {
  const { t, i18n } = useTranslation();
  const q = useQuery(walletMovesQuery(db, wallet._id));
  const lang = i18n.language;
  const p = validPrecision(wallet.precision);
  const currency = wallet.currency ?? null;
  if (q.isPending) return <Placeholder size="large" height="12rem" />;
  if (q.isError) return <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} />;
  const points = balanceSeries(wallet._id, wallet.start_balance, q.data, today());
  const last = points[points.length - 1]!;
  const label = t('finance.wallets.chartLabel', {
    name: wallet.name ?? '',
    from: formatDate(points[0]!.date, lang),
    to: formatDate(last.date, lang),
    balance: formatUnits(last.balance, lang, currency, p),
  });
  return (
    <Flex direction="column" gap="xs">
      <LazyChart
        testId="balance-chart"
        dataKey={`${lang}|${p}|${points.map((pt) => `${pt.date}:${pt.balance}`).join(',')}`}
        label={label}
        build={(c) => ({
          type: 'line',
          data: {
            labels: points.map((pt) => formatDate(pt.date, lang)),
            datasets: [
              {
                label: t('fields.balance'),
                data: points.map((pt) => unitsToAmount(pt.balance, p)),
                borderColor: c.line,
                backgroundColor: c.fill,
                pointBackgroundColor: c.line,
                fill: true,
                stepped: 'before',
                pointRadius: points.length > 60 ? 0 : 3,
              },
            ],
          },
          options: {
            ...chartLayout,
            interaction: { mode: 'index', intersect: false },
            plugins: {
              legend: { display: false },
              tooltip: { callbacks: { label: (item) => formatMoney(Number(item.parsed.y), lang, { currency, precision: p }) } },
            },
            scales: {
              x: { ticks: { color: c.text, maxRotation: 0, autoSkip: true, maxTicksLimit: 8 }, grid: { color: c.grid } },
              y: { ticks: { color: c.text, callback: (v) => formatMoney(Number(v), lang, { currency, precision: 0 }) }, grid: { color: c.grid } },
            },
          },
        })}
        table={
          <Table size="small" caption={label}>
            <HeadRow cells={[t('fields.posted_at'), t('fields.balance')]} />
            <TableBody>
              {points.map((pt) => (
                <TableRow key={pt.date}>
                  <TableCell>{formatDate(pt.date, lang)}</TableCell>
                  <TableCell>{formatUnits(pt.balance, lang, currency, p)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        }
      />
      <Text fontSize="small" variation="tertiary">
        {t('finance.wallets.chartNote')}
      </Text>
    </Flex>
  );
}
