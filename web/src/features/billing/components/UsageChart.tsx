// The usage chart: one stacked bar per day, a colour per klass. Chart.js is
// fetched when the chart is first shown (a dynamic import of
// ./chart-setup); the canvas is an image with a sentence for assistive
// technology, and the page offers the same numbers as a table.

import { Loader, Text } from '@aws-amplify/ui-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import { useThemeMode } from '../../../lib/theme';
import { colourOf, type Measure, type UsageSeries } from '../usage';

export function UsageChart({ series, measure, label }: { series: UsageSeries; measure: Measure; label: string }) {
  const { t, i18n } = useTranslation();
  const { mode } = useThemeMode();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const lang = i18n.language;
  const key = `${lang}|${measure}|${series.dates.join(',')}|${series.totals.join(',')}`;
  const seriesRef = useRef(series);
  seriesRef.current = series;
  useEffect(() => {
    let cancelled = false;
    let chart: { destroy: () => void } | null = null;
    import('./chart-setup')
      .then(({ Chart }) => {
        if (cancelled || !canvas.current) return;
        const ctx = canvas.current.getContext('2d');
        if (!ctx) throw new Error('no canvas');
        const css = getComputedStyle(canvas.current);
        const text = css.getPropertyValue('--amplify-colors-font-secondary').trim() || '#555';
        const grid = css.getPropertyValue('--amplify-colors-border-secondary').trim() || '#ddd';
        const s = seriesRef.current;
        const fmt = (v: number) => (measure === 'bytes' ? formatBytes(v, lang) : formatNumber(v, lang, 0));
        chart = new Chart(ctx, {
          type: 'bar',
          data: {
            labels: s.dates.map((d) => formatDate(d, lang)),
            datasets: s.klasses.map((k, i) => ({ label: k, data: s.values[k]!, backgroundColor: colourOf(i), stack: 'usage' })),
          },
          options: {
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            interaction: { mode: 'index', intersect: false },
            plugins: {
              legend: { position: 'bottom', labels: { color: text, boxWidth: 12 } },
              tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${fmt(Number(item.parsed.y))}` } },
            },
            scales: {
              x: { stacked: true, ticks: { color: text, maxRotation: 0, autoSkip: true, maxTicksLimit: 8 }, grid: { color: grid } },
              y: { stacked: true, beginAtZero: true, ticks: { color: text, callback: (v) => fmt(Number(v)) }, grid: { color: grid } },
            },
          },
        });
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [mode, key, lang, measure]);
  return (
    <div className="usage-chart" data-testid="usage-chart" data-state={state}>
      {state === 'loading' ? <Loader size="large" ariaLabel={t('common.loading')} /> : null}
      {state === 'failed' ? <Text variation="secondary">{t('billing.usage.chartFailed')}</Text> : null}
      <canvas ref={canvas} role="img" aria-label={label} hidden={state === 'failed'} />
    </div>
  );
}
