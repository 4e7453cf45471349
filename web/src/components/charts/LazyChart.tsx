// LazyChart: a Chart.js chart (the finance and usage charts) whose library is fetched when the chart is
// first shown (a dynamic import of ./chart-setup). The canvas is an image
// with a label for assistive technology, and the same numbers are offered
// as a table under it. Colours are read from the theme's CSS variables, so
// the chart is redrawn when the theme changes.

import { Loader, Text } from '@aws-amplify/ui-react';
import type { ChartConfiguration } from 'chart.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../lib/theme';
import './charts.css';

/** chartLayout is every chart's sizing: the box (charts.css) sizes the canvas, and it draws at once, without animation. */
export const chartLayout = { responsive: true, maintainAspectRatio: false, animation: false } as const;

export interface ChartColors {
  text: string;
  grid: string;
  line: string;
  fill: string;
  income: string;
  expense: string;
}

/** themeColors reads the Amplify tokens that the element sees (light or dark). */
export function themeColors(el: Element): ChartColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--amplify-colors-font-secondary', '#555'),
    grid: v('--amplify-colors-border-secondary', '#ddd'),
    line: v('--amplify-colors-brand-primary-80', '#047d95'),
    fill: v('--amplify-colors-brand-primary-20', 'rgba(4,125,149,.15)'),
    income: v('--amplify-colors-green-60', '#2e7d32'),
    expense: v('--amplify-colors-red-60', '#c62828'),
  };
}

type Config = ChartConfiguration<'line' | 'bar'>;

export function LazyChart({
  build,
  dataKey,
  label,
  table,
  testId,
  tall = false,
}: {
  /** The chart's configuration for the theme's colours. */
  build: (colors: ChartColors) => Config;
  /** Changes whenever the data does (the chart is redrawn then). */
  dataKey: string;
  /** What the chart shows, in a sentence (the canvas's accessible name). */
  label: string;
  /** The same numbers as a table, under "Show as a table". */
  table?: ReactNode;
  testId?: string;
  tall?: boolean;
}) {
  const { t } = useTranslation();
  const { mode } = useThemeMode();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const buildRef = useRef(build);
  buildRef.current = build;
  // Redrawn when the data or the theme changes; build is a new function
  // on every render, so dataKey says when its result would differ.
  useEffect(() => {
    let cancelled = false;
    let chart: { destroy: () => void } | null = null;
    import('./chart-setup')
      .then(({ Chart }) => {
        if (cancelled || !canvas.current) return;
        const ctx = canvas.current.getContext('2d');
        if (!ctx) throw new Error('no canvas');
        chart = new Chart(ctx, buildRef.current(themeColors(canvas.current)) as ChartConfiguration);
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [mode, dataKey]);
  return (
    <div data-testid={testId} data-state={state}>
      <div className={`chart-box${tall ? ' chart-box--tall' : ''}`}>
        {state === 'loading' ? <Loader size="large" ariaLabel={t('common.loading')} /> : null}
        {state === 'failed' ? <Text variation="secondary">{t('charts.unavailable')}</Text> : null}
        <canvas ref={canvas} role="img" aria-label={label} hidden={state === 'failed'} />
      </div>
      {table ? (
        <details className="chart-table">
          <summary>{t('charts.asTable')}</summary>
          {table}
        </details>
      ) : null}
    </div>
  );
}
