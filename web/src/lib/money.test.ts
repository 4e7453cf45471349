import { describe, expect, it } from 'vitest';
import { formatUnits, parseAmount, unitsToInput } from './money';

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
});
