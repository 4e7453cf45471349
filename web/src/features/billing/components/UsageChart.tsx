// The usage chart: one stacked bar per day, a colour per klass, drawn by
// the app's lazy Chart.js chart (components/charts); the page offers the
// same numbers as a table.

import { useTranslation } from 'react-i18next';
import { chartLayout, LazyChart } from '../../../components/charts/LazyChart';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import { colourOf, type Measure, type UsageSeries } from '../usage';

export function UsageChart({ series, measure, label }: { series: UsageSeries; measure: Measure; label: string }) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const fmt = (v: number) => (measure === 'bytes' ? formatBytes(v, lang) : formatNumber(v, lang, 0));
  return (
    <LazyChart
      testId="usage-chart"
      tall
      label={label}
      dataKey={`${lang}|${measure}|${series.dates.join(',')}|${series.totals.join(',')}`}
      build={({ text, grid }) => ({
        type: 'bar',
        data: {
          labels: series.dates.map((d) => formatDate(d, lang)),
          datasets: series.klasses.map((k, i) => ({ label: k, data: series.values[k]!, backgroundColor: colourOf(i), stack: 'usage' })),
        },
        options: {
          ...chartLayout,
          interaction: { mode: 'index', intersect: false },
          plugins: {
            legend: { position: 'bottom', labels: { color: text, boxWidth: 12 } },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${fmt(Number(item.parsed.y))}` } },
          },
          scales: {
            x: { stacked: true, ticks: { color: text, maxRotation: 0, autoSkip: true, maxTicksLimit: 8 }, grid: { color: grid } },
            // Whole bytes and records only: an empty Group's axis reads 0 and 1, not 0.1 … 1 rounded.
            y: { stacked: true, beginAtZero: true, ticks: { color: text, precision: 0, callback: (v) => fmt(Number(v)) }, grid: { color: grid } },
          },
        },
      })}
    />
  );
}
