// Money shown and typed per SPEC §9: the server keeps integer minor units
// (cents) with a precision; MoneyText formats them (USD as US$, pt-BR with
// R$ and comma decimals, the code plus a plain number when the currency is
// unknown), MoneyInput lets a person type "1.234,56" or "1,234.56" and
// hands back units, or NaN while the text is not an amount.

import { TextField } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatUnits, parseAmount, unitsToInput, validPrecision } from '../../lib/money';
import { errorOf } from '../ErrorAlert';

export function MoneyText({ units, currency, precision }: { units: unknown; currency?: string | null; precision?: number | null }) {
  const { i18n } = useTranslation();
  const n = typeof units === 'number' ? units : typeof units === 'string' && units.trim() !== '' ? Number(units) : Number.NaN;
  if (!Number.isFinite(n)) return null;
  return (
    <span className={`money${n < 0 ? ' money--negative' : ''}`} data-units={n}>
      {formatUnits(n, i18n.language, currency, precision)}
    </span>
  );
}

export function MoneyInput({
  label,
  name,
  units,
  onChange,
  currency,
  precision,
  error,
  isRequired,
  isDisabled,
  allowNegative = false,
}: {
  label: string;
  name: string;
  units: number | null | undefined;
  /** null when empty, NaN while the text is not an amount. */
  onChange: (units: number | null) => void;
  currency?: string | null;
  precision?: number | null;
  error?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  allowNegative?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const p = validPrecision(precision);
  const [text, setText] = useState(() => unitsToInput(units, i18n.language, p));
  // Follow the value when it changes from outside (a loaded record).
  useEffect(() => {
    setText((cur) => {
      const parsed = parseAmount(cur, i18n.language, p);
      return Object.is(parsed, units ?? null) ? cur : unitsToInput(units, i18n.language, p);
    });
  }, [units, i18n.language, p]);
  const parsed = parseAmount(text, i18n.language, p);
  const localError =
    parsed !== null && Number.isNaN(parsed)
      ? t('records.notAmount')
      : parsed !== null && parsed < 0 && !allowNegative
        ? t('records.notNegative')
        : undefined;
  const shown = error ?? localError;
  return (
    <TextField
      label={label}
      name={name}
      value={text}
      inputMode="decimal"
      autoComplete="off"
      outerStartComponent={currency ? <span className="money-input__currency">{currency.toUpperCase()}</span> : undefined}
      {...errorOf(shown)}
      isRequired={isRequired}
      isDisabled={isDisabled}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseAmount(e.target.value, i18n.language, p));
      }}
      onBlur={() => {
        const v = parseAmount(text, i18n.language, p);
        if (v !== null && !Number.isNaN(v)) setText(unitsToInput(v, i18n.language, p));
      }}
    />
  );
}
