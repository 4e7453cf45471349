// wallets#new and #edit: name, label, the currency (the common ISO codes a
// click away, any three-letter code typed), its decimal digits (the
// currency's own by default), the opening balance (may be negative) typed
// in that currency and precision, active, and a card with its limit.
// Checks under the fields before sending; the server's refusals land there
// too. Ctrl+Enter saves.

import { Button, Card, Flex, Grid, Placeholder, SelectField, SwitchField, Text, TextField } from '@aws-amplify/ui-react';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedForm, FormActions } from '../../../components/records/CheckedForm';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { MoneyInput } from '../../../components/records/Money';
import { useAutofocus } from '../../../components/records/useAutofocus';
import { useRecordEditor } from '../../../components/records/useRecordEditor';
import { minorDigits, rescaleUnits, validPrecision } from '../../../lib/money';
import { checkWallet } from '../checks';
import { SCOPE } from '../api/types';
import { COMMON_CURRENCIES } from '../api/wallets';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['name', 'label', 'currency', 'precision', 'start_balance', 'active', 'card', 'card_limit'];
const PRECISIONS = [0, 1, 2, 3, 4];
const QUICK = COMMON_CURRENCIES.slice(0, 5);

/** The precision a currency suggests (its ISO minor digits, within the 0–4 the server allows). */
export const suggestedPrecision = (currency: string) => Math.min(4, Math.max(0, minorDigits(currency)));

function currencyName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function Component() {
  const { t, i18n } = useTranslation();
  const listId = useId();
  const ed = useRecordEditor('wallets', 'Wallet', { active: true, card: false, precision: 2, start_balance: 0, currency: '' }, { scope: SCOPE, alsoRefresh: ['balances'] });
  const fieldError = useFieldError(ed.error);
  const formRef = useRef<HTMLFormElement>(null);
  const touchedPrecision = useRef(false);
  const v = ed.values;
  useAutofocus(formRef, v === null);
  const title = ed.editing ? t('finance.wallets.edit') : t('finance.wallets.new');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const str = (name: string) => (typeof v?.[name] === 'string' ? (v[name] as string) : '');
  const num = (name: string) => (typeof v?.[name] === 'number' ? (v[name] as number) : null);
  const currency = str('currency').toUpperCase();
  const precision = validPrecision(num('precision'));
  const setPrecision = (p: number) => ed.set({ precision: p, start_balance: rescaleUnits(num('start_balance'), precision, p), card_limit: rescaleUnits(num('card_limit'), precision, p) });
  const setCurrency = (code: string) => {
    const c = code.toUpperCase();
    ed.set({ currency: c });
    if (!ed.editing && !touchedPrecision.current && /^[A-Z]{3}$/.test(c)) {
      const p = suggestedPrecision(c);
      if (p !== precision) setPrecision(p);
    }
  };
  return (
    <Page title={title} width="medium" breadcrumbs={<FinanceCrumbs db={ed.db} set="wallets" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <CheckedForm
            ref={formRef}
            label={title}
            saving={ed.saving}
            check={() => checkWallet(v)}
            onInvalid={ed.setError}
            onValid={ed.save}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                <TextField label={t('fields.name')} name="name" isRequired value={str('name')} onChange={(e) => ed.set({ name: e.target.value })} hasError={!!fieldError('name')} errorMessage={fieldError('name')} />
                <TextField label={t('fields.label')} name="label" value={str('label')} onChange={(e) => ed.set({ label: e.target.value })} hasError={!!fieldError('label')} errorMessage={fieldError('label')} />
              </Grid>
              <Flex direction="column" gap="xxs">
                <TextField
                  label={t('fields.currency')}
                  name="currency"
                  isRequired
                  value={currency}
                  list={listId}
                  maxLength={3}
                  autoComplete="off"
                  autoCapitalize="characters"
                  placeholder="BRL"
                  descriptiveText={currency && /^[A-Z]{3}$/.test(currency) ? currencyName(currency, i18n.language) : t('finance.wallets.currencyHint')}
                  onChange={(e) => setCurrency(e.target.value.replace(/[^A-Za-z]/g, ''))}
                  {...errorOf(fieldError('currency'))}
                />
                <datalist id={listId}>
                  {COMMON_CURRENCIES.map((c) => (
                    <option key={c} value={c}>
                      {currencyName(c, i18n.language)}
                    </option>
                  ))}
                </datalist>
                <div className="currency-chips" role="group" aria-label={t('finance.wallets.commonCurrencies')}>
                  {QUICK.map((c) => (
                    <Button key={c} size="small" type="button" variation={currency === c ? 'primary' : undefined} aria-pressed={currency === c} onClick={() => setCurrency(c)} data-testid={`currency-${c}`}>
                      {c}
                    </Button>
                  ))}
                </div>
              </Flex>
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                <SelectField
                  label={t('fields.precision')}
                  name="precision"
                  value={String(precision)}
                  onChange={(e) => {
                    touchedPrecision.current = true;
                    setPrecision(Number(e.target.value));
                  }}
                  descriptiveText={ed.editing ? t('finance.wallets.precisionWarning') : t('finance.wallets.precisionHint')}
                  {...errorOf(fieldError('precision'))}
                >
                  {PRECISIONS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </SelectField>
                <MoneyInput
                  label={t('fields.start_balance')}
                  name="start_balance"
                  units={num('start_balance')}
                  onChange={(units) => ed.set({ start_balance: units })}
                  currency={currency || null}
                  precision={precision}
                  allowNegative
                  error={fieldError('start_balance')}
                />
              </Grid>
              <Flex gap="large" wrap="wrap">
                <SwitchField label={t('fields.active')} name="active" isChecked={v.active !== false} onChange={(e) => ed.set({ active: e.target.checked })} />
                <SwitchField label={t('fields.card')} name="card" isChecked={v.card === true} onChange={(e) => ed.set({ card: e.target.checked })} />
              </Flex>
              {v.card === true ? (
                <MoneyInput
                  label={t('fields.card_limit')}
                  name="card_limit"
                  units={num('card_limit')}
                  onChange={(units) => ed.set({ card_limit: units })}
                  currency={currency || null}
                  precision={precision}
                  error={fieldError('card_limit')}
                />
              ) : null}
              {!ed.editing ? null : (
                <Text fontSize="small" variation="tertiary">
                  {t('finance.wallets.balanceNote')}
                </Text>
              )}
              <FormActions saving={ed.saving} onCancel={ed.cancel} />
            </Flex>
          </CheckedForm>
        )}
      </Card>
    </Page>
  );
}
