import { describe, expect, it, vi } from 'vitest';
import { formatUnits, groupCurrency, minorDigits, parseAmount, rescaleUnits, toStandardUnits, unitsToInput } from './money';

describe('money', () => {
  it.each([
    ['1.234,56', 'pt-BR', 2, 123456],
    ['1234,5', 'pt-BR', 2, 123450],
    ['R$ 10', 'pt-BR', 2, 1000],
    ['10.5', 'pt-BR', 2, 1050],
    ['1.234', 'pt-BR', 2, 123400],
    ['1,234.56', 'en', 2, 123456],
    ['US$ 1,234', 'en', 2, 123400],
    ['-3.5', 'en', 2, -350],
    ['0.001', 'en', 3, 1],
    ['12', 'en', 0, 12],
    ['-R$ 7,00', 'pt-BR', 2, -700],
    ['10 BRL', 'pt-BR', 2, 1000],
  ])('parseAmount(%j, %s, %d) = %d', (text, locale, p, want) => {
    expect(parseAmount(text, locale, p)).toBe(want);
  });

  it.each([['abc'], ['1.2.3,4,5'], ['1,234.567'], ['--1'], ['1-2'], ['12x'], ['1e3']])('parseAmount(%j) is not an amount', (text) => {
    expect(parseAmount(text, 'en', 2)).toBeNaN();
  });

  it('reads an empty input as no amount', () => {
    expect(parseAmount('  ', 'en', 2)).toBeNull();
  });

  it('formats units per locale, USD as US$, unknown currencies as code plus number', () => {
    expect(formatUnits(123456, 'en', 'USD', 2)).toBe('US$1,234.56');
    expect(formatUnits(123456, 'pt-BR', 'BRL', 2).replace(/\s/g, ' ')).toBe('R$ 1.234,56');
    expect(formatUnits(5, 'en', 'XYZW', 2)).toBe('XYZW 0.05');
    expect(formatUnits(undefined, 'en', 'USD', 2)).toBe('');
  });

  it('gives inputs a plain number without grouping', () => {
    expect(unitsToInput(123456, 'pt-BR', 2)).toBe('1234,56');
    expect(unitsToInput(123456, 'en', 2)).toBe('1234.56');
    expect(unitsToInput(1234567, 'en', 0)).toBe('1234567');
    expect(parseAmount(unitsToInput(987654321, 'pt-BR', 2), 'pt-BR', 2)).toBe(987654321);
  });

  it('falls back to the currency code plus a plain number when Intl cannot format at all', () => {
    const Real = Intl.NumberFormat;
    // A runtime without currency data (or a broken Intl): every NumberFormat throws.
    vi.spyOn(Intl, 'NumberFormat').mockImplementation(() => {
      throw new RangeError('no Intl here');
    });
    try {
      expect(formatUnits(123450, 'en', 'USD', 2)).toBe('USD 1234.50');
      expect(formatUnits(123450, 'pt-BR', 'BRL', 2)).toBe('BRL 1234,50');
      expect(formatUnits(-5, 'pt-BR', 'JPY', 0)).toBe('JPY -5');
      expect(formatUnits(1, 'en', 'btc', 4)).toBe('BTC 0.0001');
    } finally {
      vi.mocked(Intl.NumberFormat).mockRestore();
    }
    expect(Intl.NumberFormat).toBe(Real);
  });

  it('falls back with the locale grouping when only the currency code is malformed', () => {
    expect(formatUnits(123456789, 'pt-BR', 'XYZW', 2)).toBe('XYZW 1.234.567,89');
    expect(formatUnits(123456789, 'en', 'XYZW', 2)).toBe('XYZW 1,234,567.89');
  });

  it('rescales units between precisions, NaN when decimals would be lost', () => {
    expect(rescaleUnits(1250, 2, 3)).toBe(12500);
    expect(rescaleUnits(1250, 2, 1)).toBe(125);
    expect(rescaleUnits(1255, 2, 1)).toBeNaN();
    expect(rescaleUnits(1200, 2, 0)).toBe(12);
    expect(rescaleUnits(null, 2, 0)).toBeNull();
    expect(rescaleUnits(7, 2, 2)).toBe(7);
  });

  it('brings units to the ISO minor digits like the server', () => {
    expect(minorDigits('BRL')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('nope')).toBe(2);
    expect(toStandardUnits(12345, 3, 'USD')).toBe(1235);
    expect(toStandardUnits(-12345, 3, 'USD')).toBe(-1235);
    expect(toStandardUnits(12, 0, 'BRL')).toBe(1200);
    expect(toStandardUnits(150, 2, 'JPY')).toBe(2);
  });
});

describe('groupCurrency (issue 22 item 15)', () => {
  it.each([
    [{}, 'USD'],
    [{ country: 'BR' }, 'BRL'],
    [{ locale: 'pt-BR' }, 'BRL'],
    [{ country: 'US', locale: 'pt-BR' }, 'USD'],
    [{ country: 'BR', currency: 'usd' }, 'USD'],
    [{ country: 'BR', currency: 'EUR' }, 'EUR'],
    [{ country: 'BR', currency: 'real' }, 'BRL'],
  ])("follows the Group's settings, not the interface language: %j → %s", (cfg, want) => {
    expect(groupCurrency(cfg)).toBe(want);
  });
});
