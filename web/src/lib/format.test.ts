import { describe, expect, it } from 'vitest';
import {
  counterBadge,
  formatBytes,
  formatCents,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  priorityPercentages,
} from './format';

// Intl puts a no-break space between the symbol and the amount in pt-BR.
const norm = (s: string) => s.replace(/\u00a0|\u202f/g, ' ');

describe('formatMoney', () => {
  it('shows USD with a US$ prefix and 2 decimals by default', () => {
    expect(norm(formatMoney(1234.5, 'en'))).toBe('US$1,234.50');
    expect(norm(formatMoney(1234.5, 'pt-BR'))).toBe('US$ 1.234,50');
  });
  it('shows reais with comma decimals in pt-BR and the precision asked', () => {
    expect(norm(formatMoney(1234.5, 'pt-BR', { currency: 'BRL' }))).toBe('R$ 1.234,50');
    expect(norm(formatMoney(10, 'en', { currency: 'BRL', precision: 0 }))).toBe('R$10');
    expect(norm(formatMoney(1.23456, 'en', { currency: 'EUR', precision: 3 }))).toBe('€1.235');
  });
  it('falls back to the currency code plus a plain number', () => {
    expect(norm(formatMoney(1234.5, 'en', { currency: 'BITCOIN' }))).toBe('BITCOIN 1,234.50');
    expect(norm(formatMoney(1234.5, 'pt-BR', { currency: 'pts' }))).toBe('PTS 1.234,50');
  });
  it('shows prices kept in cents as amount/100', () => {
    expect(norm(formatCents(600, 'en'))).toBe('US$6.00');
    expect(norm(formatCents(1800, 'pt-BR'))).toBe('US$ 18,00');
  });
});

describe('formatNumber', () => {
  it('uses each locale separators', () => {
    expect(formatNumber(1234567.891, 'en', 2)).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, 'pt-BR', 2)).toBe('1.234.567,89');
    expect(formatNumber(NaN, 'en')).toBe('');
  });
});

describe('formatDate', () => {
  it('en is yyyy-mm-dd and pt-BR is dd/mm/yyyy', () => {
    expect(formatDate('2025-10-15', 'en')).toBe('2025-10-15');
    expect(formatDate('2025-10-15', 'pt-BR')).toBe('15/10/2025');
    expect(formatDate(new Date(2024, 0, 5), 'pt-BR')).toBe('05/01/2024');
  });
  it('keeps a plain date on its calendar day and reads timestamps', () => {
    expect(formatDate('2025-01-01', 'en')).toBe('2025-01-01');
    const d = new Date(2025, 2, 9, 14, 7);
    expect(formatDateTime(d.toISOString(), 'en')).toBe('2025-03-09 14:07');
    expect(formatDateTime(d, 'pt-BR')).toBe('09/03/2025 14:07');
  });
  it('is empty for missing or invalid dates', () => {
    expect(formatDate(null, 'en')).toBe('');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});

describe('formatBytes', () => {
  it('uses base 1000 with 1 decimal', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(1000, 'en')).toBe('1.0 kB');
    expect(formatBytes(1500, 'en')).toBe('1.5 kB');
    expect(formatBytes(1_000_000, 'en')).toBe('1.0 MB');
    expect(formatBytes(123_456_789, 'en')).toBe('123.5 MB');
    expect(formatBytes(1_000_000_000, 'pt-BR')).toBe('1,0 GB');
    expect(formatBytes(999_960, 'en')).toBe('1.0 MB');
  });
});

describe('counterBadge', () => {
  it.each([
    [0, '0', 'grey'],
    [1, '1', 'amber'],
    [6, '6', 'amber'],
    [7, '7', 'orange'],
    [9, '9', 'orange'],
    [10, '9+', 'red'],
    [250, '9+', 'red'],
    [-3, '0', 'grey'],
    [null, '0', 'grey'],
  ])('%s → %s %s', (n, label, tone) => {
    expect(counterBadge(n as number | null)).toEqual({ label, tone });
  });
});

describe('priorityPercentages', () => {
  it('gives whole numbers with low as the remainder', () => {
    expect(priorityPercentages({ high: 1, medium: 1, low: 1 })).toEqual({ high: 33, medium: 33, low: 34 });
    expect(priorityPercentages({ high: 2, medium: 1 })).toEqual({ high: 67, medium: 33, low: 0 });
    expect(priorityPercentages({})).toEqual({ high: 0, medium: 0, low: 0 });
  });
});
