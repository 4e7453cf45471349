// Money as the server keeps it: integer minor units (cents) with a precision
// (decimal digits, a wallet's). These turn units into what a person types and
// reads per SPEC §9 (en "1,234.56", pt-BR "1.234,56") and back.

import { useAccountConfig, type AccountConfig } from './account-config';
import { useActiveDb } from './active-db';
import { DEFAULT_PRECISION, formatMoney } from './format';
import { groupCountry } from './phones';

export function validPrecision(p: number | null | undefined): number {
  return typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 8 ? p : DEFAULT_PRECISION;
}

/** unitsToAmount: 123456 units at precision 2 → 1234.56. */
export function unitsToAmount(units: number, precision?: number | null): number {
  return units / 10 ** validPrecision(precision);
}

/** formatUnits shows minor units as money in currency (SPEC §9, with the code-plus-number fallback). */
export function formatUnits(units: number | null | undefined, locale: string, currency?: string | null, precision?: number | null): string {
  if (typeof units !== 'number' || !Number.isFinite(units)) return '';
  return formatMoney(unitsToAmount(units, precision), locale, { currency: currency ?? null, precision: validPrecision(precision) });
}

/** unitsToInput is the plain number an input shows for units ("1234,56" in pt-BR, no grouping). */
export function unitsToInput(units: number | null | undefined, locale: string, precision?: number | null): string {
  if (typeof units !== 'number' || !Number.isSafeInteger(units)) return '';
  const p = validPrecision(precision);
  const digits = String(Math.abs(units)).padStart(p + 1, '0');
  const int = digits.slice(0, digits.length - p);
  const frac = digits.slice(digits.length - p);
  return `${units < 0 ? '-' : ''}${int}${p > 0 ? (locale === 'pt-BR' ? ',' : '.') + frac : ''}`;
}

/**
 * parseAmount reads what a person typed as minor units: "1.234,56" (pt-BR) or
 * "1,234.56" (en), "12", "-3,5", "R$ 10"; a lone separator followed by exactly
 * three digits is read as grouping. Returns null for empty input and NaN for
 * anything that is not an amount or has more decimals than the precision.
 */
export function parseAmount(text: string, locale: string, precision?: number | null): number | null {
  const p = validPrecision(precision);
  // A currency sign or code around the number is fine; any other letter is not.
  const s = text
    .replace(/[\s\u00a0]/g, '')
    .replace(/^(-?)(R\$|US\$|\$|[A-Za-z]{3})/, '$1')
    .replace(/(R\$|US\$|\$|[A-Za-z]{3})$/, '');
  if (text.trim() === '') return null;
  if (s === '' || s === '-' || /[^\d.,-]/.test(s)) return Number.NaN;
  const negative = s.startsWith('-');
  const body = negative ? s.slice(1) : s;
  if (body.includes('-')) return Number.NaN;
  const decimalSep = locale === 'pt-BR' ? ',' : '.';
  const groupSep = decimalSep === ',' ? '.' : ',';
  let intPart = body;
  let frac = '';
  const lastDec = body.lastIndexOf(decimalSep);
  if (lastDec >= 0) {
    intPart = body.slice(0, lastDec);
    frac = body.slice(lastDec + 1);
  } else if (!body.includes(groupSep) || !/^\d{1,3}([.,]\d{3})+$/.test(body)) {
    // Typed with the other convention ("10.5" in pt-BR): one separator, not three digits after it.
    const other = body.lastIndexOf(groupSep);
    if (other >= 0 && body.length - other - 1 !== 3) {
      intPart = body.slice(0, other);
      frac = body.slice(other + 1);
    }
  }
  intPart = intPart.split(groupSep).join('');
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || (intPart === '' && frac === '')) return Number.NaN;
  if (frac.length > p) return Number.NaN;
  const units = Number(intPart || '0') * 10 ** p + Number((frac + '0'.repeat(p)).slice(0, p) || '0');
  if (!Number.isSafeInteger(units)) return Number.NaN;
  return negative ? -units : units;
}

/** minorDigits: a currency's ISO 4217 minor digits (2 for BRL and USD, 0 for JPY; 2 when Intl does not know it). */
export function minorDigits(currency: string | null | undefined): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: (currency || 'USD').toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * rescaleUnits moves units from one precision to another (a wallet changed
 * in a form): 1250 at 2 is 12500 at 3 and 125 at 1; NaN when the amount has
 * more decimals than the new precision allows (12.55 at 1), null stays null.
 */
export function rescaleUnits(units: number | null, from: number, to: number): number | null {
  if (units === null || Number.isNaN(units) || from === to) return units;
  if (to > from) {
    const n = units * 10 ** (to - from);
    return Number.isSafeInteger(n) ? n : Number.NaN;
  }
  const d = 10 ** (from - to);
  return units % d === 0 ? units / d : Number.NaN;
}

/**
 * toStandardUnits mirrors the server's finance.ToStandard: units at a
 * wallet's precision in the currency's ISO minor units, half away from
 * zero, so wallets of one currency at different precisions add up.
 */
export function toStandardUnits(units: number, precision: number, currency: string): number {
  const scale = minorDigits(currency);
  let u = units;
  let p = validPrecision(precision);
  for (; p < scale; p++) u *= 10;
  for (; p > scale; p--) u = u < 0 ? -Math.round(-u / 10) : Math.round(u / 10);
  return u;
}

/**
 * groupCurrency is the currency a Group's estimates are in (issue 22 item
 * 15): its currency setting when a code, else the real of a Brazilian
 * Group, else the dollar — as the server answers (shared/servicedocs
 * groupCurrency).
 */
export function groupCurrency(cfg: AccountConfig): string {
  const c = typeof cfg.currency === 'string' ? cfg.currency.trim().toUpperCase() : '';
  if (/^[A-Z]{3}$/.test(c)) return c;
  return groupCountry(cfg) === 'BR' ? 'BRL' : 'USD';
}

/** useGroupCurrency: the active Group's currency (the dollar while its settings load). */
export function useGroupCurrency(db?: string | null): string {
  const active = useActiveDb();
  return groupCurrency(useAccountConfig(db ?? active));
}
