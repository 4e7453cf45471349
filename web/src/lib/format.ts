// Formatting per SPEC §9: money (with the currency-code fallback), numbers,
// dates (en yyyy-mm-dd, pt-BR dd/mm/yyyy), byte sizes (base 1000, 1 decimal),
// the counter badge and the priority percentages.

export type Locale = 'en' | 'pt-BR';

const INTL_LOCALE: Record<Locale, string> = { en: 'en-US', 'pt-BR': 'pt-BR' };

export function intlLocale(locale: string): string {
  return INTL_LOCALE[locale as Locale] ?? 'en-US';
}

export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_PRECISION = 2;

export interface MoneyOptions {
  currency?: string | null;
  /** Decimal digits (a wallet's precision); 2 by default. */
  precision?: number | null;
}

function validPrecision(p: number | null | undefined): number {
  return typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 8 ? p : DEFAULT_PRECISION;
}

/** formatNumber: en "1,234.56", pt-BR "1.234,56". */
export function formatNumber(value: number, locale: string, decimals?: number): string {
  if (!Number.isFinite(value)) return '';
  const opts: Intl.NumberFormatOptions =
    decimals === undefined ? { maximumFractionDigits: 20 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return new Intl.NumberFormat(intlLocale(locale), opts).format(value);
}

/**
 * formatMoney shows value (in currency units, not cents) in currency with the
 * given precision. USD always reads "US$" so it is never mistaken for another
 * dollar. If the currency is not one Intl knows (a free-text wallet
 * currency), it falls back to the code plus a plain number.
 */
export function formatMoney(value: number, locale: string, opts: MoneyOptions = {}): string {
  const currency = (opts.currency || DEFAULT_CURRENCY).trim().toUpperCase();
  const precision = validPrecision(opts.precision);
  if (!Number.isFinite(value)) return '';
  try {
    const nf = new Intl.NumberFormat(intlLocale(locale), {
      style: 'currency',
      currency,
      currencyDisplay: 'symbol',
      minimumFractionDigits: precision,
      maximumFractionDigits: precision,
    });
    return nf
      .formatToParts(value)
      .map((p) => (p.type === 'currency' && currency === 'USD' && p.value === '$' ? 'US$' : p.value))
      .join('');
  } catch {
    return `${currency} ${plainNumber(value, locale, precision)}`;
  }
}

/**
 * plainNumber is the number part of the money fallback: the locale's
 * grouping and decimals when Intl can format numbers, else digits with the
 * locale's decimal separator (pt-BR ",", en ".") and no grouping.
 */
export function plainNumber(value: number, locale: string, precision: number): string {
  try {
    return formatNumber(value, locale, precision);
  } catch {
    const fixed = value.toFixed(precision);
    return locale === 'pt-BR' ? fixed.replace('.', ',') : fixed;
  }
}

/** formatCents shows a price kept in cents (SPEC §9: amount/100). */
export function formatCents(cents: number, locale: string, currency: string = DEFAULT_CURRENCY): string {
  return formatMoney(cents / 100, locale, { currency, precision: 2 });
}

const pad = (n: number) => String(n).padStart(2, '0');

/** toDate reads a Date, a timestamp, an ISO string or a plain "YYYY-MM-DD" (kept as that calendar day). */
export function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (m) return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** formatDate: en yyyy-mm-dd, pt-BR dd/mm/yyyy; "" for a missing or invalid date. */
export function formatDate(value: Date | string | number | null | undefined, locale: string): string {
  const d = toDate(value);
  if (!d) return '';
  const y = d.getFullYear();
  const m = pad(d.getMonth() + 1);
  const day = pad(d.getDate());
  return locale === 'pt-BR' ? `${day}/${m}/${y}` : `${y}-${m}-${day}`;
}

/** formatDateTime adds HH:MM (24 h) to formatDate. */
export function formatDateTime(value: Date | string | number | null | undefined, locale: string): string {
  const d = toDate(value);
  if (!d) return '';
  return `${formatDate(d, locale)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** formatBytes: base 1000 with 1 decimal ("1.5 kB", pt-BR "1,5 kB"); plain bytes have none. */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return `${formatNumber(Math.round(bytes), locale, 0)} B`;
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  // 999.96 kB would round to "1000.0 kB": carry into the next unit.
  if (Math.round(value * 10) / 10 >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${formatNumber(value, locale, 1)} ${BYTE_UNITS[unit]}`;
}

export type BadgeTone = 'grey' | 'amber' | 'orange' | 'red';

/** counterBadge: digits 0 to 9 then "9+"; grey at 0, amber 1–6, orange 7–9, red above 9. */
export function counterBadge(count: number | null | undefined): { label: string; tone: BadgeTone } {
  const n = typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  const label = n > 9 ? '9+' : String(n);
  const tone: BadgeTone = n === 0 ? 'grey' : n <= 6 ? 'amber' : n <= 9 ? 'orange' : 'red';
  return { label, tone };
}

/** priorityPercentages: whole numbers for high and medium, low is the remainder to 100. */
export function priorityPercentages(counts: { high?: number; medium?: number; low?: number }): {
  high: number;
  medium: number;
  low: number;
} {
  const high = Math.max(0, counts.high ?? 0);
  const medium = Math.max(0, counts.medium ?? 0);
  const low = Math.max(0, counts.low ?? 0);
  const total = high + medium + low;
  if (total === 0) return { high: 0, medium: 0, low: 0 };
  const h = Math.round((high / total) * 100);
  const m = Math.min(100 - h, Math.round((medium / total) * 100));
  return { high: h, medium: m, low: 100 - h - m };
}
