// incomes, outgos, transfers, exchanges — #new and #edit. Wallets are
// picked by name; each amount is typed in its wallet's currency and
// precision ("12,50" in pt-BR, "12.50" in en) and follows a change of
// wallet. A transfer across currencies (or an exchange within one) says so
// under the destination as soon as both wallets are chosen, with a link to
// the other kind of record carrying what was typed. The server's refusals
// land under the same fields. Ctrl+Enter saves.
//
// ?wallet=, ?source=, ?destination=, ?description=, ?posted_at=, ?value=,
// ?value_out= pre-fill a new record.

import { Card, Flex, Grid, Placeholder, SelectField, SwitchField, Text, TextField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CheckedForm, FormActions } from '../../../components/records/CheckedForm';
import { ErrorAlert, errorOf, useErrorText, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { MoneyInput } from '../../../components/records/Money';
import { useAutofocus } from '../../../components/records/useAutofocus';
import { useRecordEditor } from '../../../components/records/useRecordEditor';
import { AppLink } from '../../../components/RouterLink';
import { rescaleUnits, validPrecision } from '../../../lib/money';
import { paths } from '../../../lib/paths';
import { useRouteHandle } from '../../../lib/route-handle';
import { amountFields, checkRecord, MSG, walletsHint } from '../checks';
import { splitCategories } from '../filters';
import { kindOfSet, SCOPE, type KindDef, type Wallet } from '../api/types';
import { byId, walletsQuery } from '../api/wallets';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { WalletSelect } from '../components/WalletSelect';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const today = () => new Date().toISOString().slice(0, 10);

const FIELDS = ['description', 'posted_at', 'wallet_id', 'source_wallet_id', 'destination_wallet_id', 'value', 'value_in', 'value_out', 'fee', 'fee_kind', 'paid_by', 'paid_to', 'categories', 'confirmed'];

const unitsParam = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : null);

/** initialValues: a new record of kind, pre-filled from the URL. */
export function initialValues(kind: KindDef, sp: URLSearchParams): Record<string, unknown> {
  const v: Record<string, unknown> = {
    description: sp.get('description') ?? '',
    posted_at: /^\d{4}-\d{2}-\d{2}$/.test(sp.get('posted_at') ?? '') ? sp.get('posted_at') : today(),
    confirmed: false,
    categories: sp.get('categories') ?? '',
  };
  if (kind.twoWallets) {
    v.source_wallet_id = sp.get('source') || null;
    v.destination_wallet_id = sp.get('destination') || null;
    v.fee_kind = 'source';
  } else {
    v.wallet_id = sp.get('wallet') || null;
  }
  if (kind.kind === 'exchange') v.value_out = unitsParam(sp.get('value_out'));
  else v.value = unitsParam(sp.get('value'));
  return v;
}

/** switchLink: the other kind's new form with what was typed (a transfer across currencies becomes an exchange). */
export function switchLink(db: string, to: 'transfers' | 'exchanges', v: Record<string, unknown>): string {
  const sp = new URLSearchParams();
  const put = (k: string, x: unknown) => {
    if (typeof x === 'string' && x) sp.set(k, x);
    if (typeof x === 'number' && Number.isSafeInteger(x)) sp.set(k, String(x));
  };
  put('description', v.description);
  put('posted_at', v.posted_at);
  put('source', v.source_wallet_id);
  put('destination', v.destination_wallet_id);
  if (to === 'exchanges') put('value_out', v.value);
  else put('value', v.value_out);
  const cats = Array.isArray(v.categories) ? v.categories.join(', ') : v.categories;
  put('categories', cats);
  return `${paths.create(db, to)}?${sp.toString()}`;
}

export function Component() {
  const { t } = useTranslation();
  const { message } = useErrorText();
  const kind = kindOfSet(useRouteHandle().set);
  const [sp] = useSearchParams();
  const initial = useMemo(() => initialValues(kind, sp), [kind, sp]);
  const ed = useRecordEditor(kind.set, kind.klass, initial, {
    scope: SCOPE,
    alsoRefresh: ['balances'],
    prepare: (body) => {
      const out: Record<string, unknown> = { ...body, categories: splitCategories(body.categories as string | string[] | undefined) };
      delete out.currency; // the server keeps the wallet's
      return out;
    },
  });
  const wallets = useQuery(walletsQuery(ed.db));
  const walletMap = useMemo(() => byId(wallets.data), [wallets.data]);
  const fieldError = useFieldError(ed.error);
  const formRef = useRef<HTMLFormElement>(null);
  const v = ed.values;
  useAutofocus(formRef, v === null);
  const title = ed.editing ? t(`finance.${kind.kind}.edit`) : t(`finance.${kind.kind}.new`);
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const str = (name: string) => (typeof v?.[name] === 'string' ? (v[name] as string) : '');
  const num = (name: string) => (typeof v?.[name] === 'number' ? (v[name] as number) : null);
  const walletOf = (field: string): Wallet | undefined => walletMap.get(String(v?.[field] ?? ''));
  const amounts = v ? amountFields(kind, v.fee_kind) : [];
  const hint = v ? walletsHint(kind, walletOf('source_wallet_id'), walletOf('destination_wallet_id')) : null;
  const destError = fieldError('destination_wallet_id') ?? (hint ? message(hint) : undefined);
  const categoriesText = Array.isArray(v?.categories) ? (v.categories as string[]).join(', ') : str('categories');

  /** A wallet changes: the amounts typed in its currency keep their value at its precision. */
  const chooseWallet = (field: string, id: string | null) => {
    if (!v) return;
    const patch: Record<string, unknown> = { [field]: id };
    const from = validPrecision(walletOf(field)?.precision);
    const to = validPrecision(walletMap.get(id ?? '')?.precision);
    if (from !== to && id && v[field]) {
      for (const a of amounts) if (a.wallet === field) patch[a.name] = rescaleUnits(num(a.name), from, to);
    }
    ed.set(patch);
    if (ed.error?.fields[field]) ed.setError(null);
  };
  const moneyInput = (name: string, required: boolean, walletField: string) => {
    const w = walletOf(walletField);
    return (
      <MoneyInput
        key={name}
        label={t(`fields.${name}`)}
        name={name}
        units={num(name)}
        onChange={(units) => ed.set({ [name]: units })}
        currency={w?.currency}
        precision={w?.precision}
        error={fieldError(name)}
        isRequired={required}
        isDisabled={ed.saving}
      />
    );
  };

  return (
    <Page title={title} width="medium" breadcrumbs={<FinanceCrumbs db={ed.db} set={kind.set} current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <CheckedForm
            ref={formRef}
            label={title}
            saving={ed.saving}
            check={() => checkRecord(kind, v, walletMap)}
            onInvalid={ed.setError}
            onValid={ed.save}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
              <TextField
                label={t('fields.description')}
                name="description"
                isRequired
                value={str('description')}
                onChange={(e) => ed.set({ description: e.target.value })}
                {...errorOf(fieldError('description'))}
              />
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                <TextField
                  label={t('fields.posted_at')}
                  name="posted_at"
                  type="date"
                  value={str('posted_at')}
                  onChange={(e) => ed.set({ posted_at: e.target.value || null })}
                  {...errorOf(fieldError('posted_at'))}
                />
                {kind.twoWallets ? null : (
                  <WalletSelect db={ed.db} label={t('fields.wallet_id')} name="wallet_id" isRequired value={str('wallet_id') || null} onChange={(id) => chooseWallet('wallet_id', id)} error={fieldError('wallet_id')} />
                )}
              </Grid>
              {kind.twoWallets ? (
                <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                  <WalletSelect db={ed.db} label={t('fields.source_wallet_id')} name="source_wallet_id" isRequired value={str('source_wallet_id') || null} onChange={(id) => chooseWallet('source_wallet_id', id)} error={fieldError('source_wallet_id')} />
                  <Flex direction="column" gap="xxs">
                    <WalletSelect
                      db={ed.db}
                      label={t('fields.destination_wallet_id')}
                      name="destination_wallet_id"
                      isRequired
                      value={str('destination_wallet_id') || null}
                      onChange={(id) => chooseWallet('destination_wallet_id', id)}
                      error={destError}
                      testId="destination-wallet"
                    />
                    {hint === MSG.needsExchange || fieldError('destination_wallet_id') === message(MSG.needsExchange) ? (
                      <AppLink to={switchLink(ed.db, 'exchanges', v)} className="fin-hint-link" data-testid="switch-to-exchange">
                        {t('finance.form.toExchange')}
                      </AppLink>
                    ) : null}
                    {hint === MSG.needsTransfer || fieldError('destination_wallet_id') === message(MSG.needsTransfer) ? (
                      <AppLink to={switchLink(ed.db, 'transfers', v)} className="fin-hint-link" data-testid="switch-to-transfer">
                        {t('finance.form.toTransfer')}
                      </AppLink>
                    ) : null}
                  </Flex>
                </Grid>
              ) : null}
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                {amounts.filter((a) => a.name !== 'fee').map((a) => moneyInput(a.name, a.required, a.wallet))}
              </Grid>
              {kind.twoWallets ? (
                <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                  {amounts.filter((a) => a.name === 'fee').map((a) => moneyInput(a.name, a.required, a.wallet))}
                  <SelectField
                    label={t('fields.fee_kind')}
                    name="fee_kind"
                    value={str('fee_kind') || 'source'}
                    onChange={(e) => {
                      const w = (k: string) => walletOf(k === 'destination' ? 'destination_wallet_id' : 'source_wallet_id');
                      const from = validPrecision(w(str('fee_kind'))?.precision);
                      const to = validPrecision(w(e.target.value)?.precision);
                      ed.set({ fee_kind: e.target.value, fee: rescaleUnits(num('fee'), from, to) });
                    }}
                    {...errorOf(fieldError('fee_kind'))}
                  >
                    <option value="source">{t('enums.fee_kind.source')}</option>
                    <option value="destination">{t('enums.fee_kind.destination')}</option>
                  </SelectField>
                </Grid>
              ) : null}
              {kind.party ? (
                <TextField
                  label={t(`fields.${kind.party}`)}
                  name={kind.party}
                  value={str(kind.party)}
                  onChange={(e) => ed.set({ [kind.party!]: e.target.value })}
                  {...errorOf(fieldError(kind.party))}
                />
              ) : null}
              <TextField
                label={t('fields.categories')}
                name="categories"
                value={categoriesText}
                descriptiveText={t('finance.form.categoriesHint')}
                onChange={(e) => ed.set({ categories: e.target.value })}
                {...errorOf(fieldError('categories'))}
              />
              <SwitchField
                label={t('fields.confirmed')}
                name="confirmed"
                isChecked={v.confirmed === true}
                onChange={(e) => ed.set({ confirmed: e.target.checked })}
                descriptiveText={t('finance.pending.help')}
              />
              {v.imported === true ? (
                <Text fontSize="small" variation="secondary">
                  {t('finance.form.importedNote')}
                </Text>
              ) : null}
              <FormActions saving={ed.saving} onCancel={ed.cancel} />
            </Flex>
          </CheckedForm>
        )}
      </Card>
    </Page>
  );
}
