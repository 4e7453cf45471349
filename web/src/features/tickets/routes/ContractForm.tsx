// contracts#new and #edit: description, customer, payment, active, and its
// terms (numbered rows, added and removed in place; a new row takes the
// next number).

import { Button, Card, Flex, Placeholder, SwitchField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { clientValidationError, type FieldErrors } from '../../../lib/errors';
import type { ContractItem } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['description', 'customer_id', 'payment_kind', 'active', 'items'];

export function Component() {
  const { t } = useTranslation();
  const [sp] = useSearchParams();
  const ed = useRecordEditor('contracts', 'Contract', { active: true, items: [], customer_id: sp.get('customer') || null });
  const fieldError = useFieldError(ed.error);
  const title = ed.editing ? t('docs.contracts.edit') : t('docs.contracts.new');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const v = ed.values;
  const items = (v?.items ?? []) as ContractItem[];
  const setItem = (i: number, patch: Partial<ContractItem>) => ed.set({ items: items.map((it, j) => (j === i ? { ...it, ...patch } : it)) });
  return (
    <Page title={title} width="medium" breadcrumbs={<DeskCrumbs db={ed.db} set="contracts" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <form
            noValidate
            data-testid="record-form"
            onSubmit={(e) => {
              e.preventDefault();
              const errs: FieldErrors = {};
              if (!String(v.description ?? '').trim()) errs.description = ["can't be blank"];
              if (!v.customer_id) errs.customer_id = ["can't be blank"];
              items.forEach((it, i) => {
                if (!it.content.trim()) errs[`items[${i}].content`] = ["can't be blank"];
              });
              if (Object.keys(errs).length) {
                ed.setError(clientValidationError(errs));
                return;
              }
              ed.save();
            }}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f) && !f.startsWith('items['))} />
              <TextAreaField label={t('fields.description')} name="description" rows={3} isRequired value={String(v.description ?? '')} onChange={(e) => ed.set({ description: e.target.value })} hasError={!!fieldError('description')} errorMessage={fieldError('description')} />
              <RecordPicker db={ed.db} klass="Customer" label={t('fields.customer_id')} name="customer_id" value={(v.customer_id as string | null) ?? null} onChange={(id) => ed.set({ customer_id: id })} error={fieldError('customer_id')} />
              <TextField label={t('fields.payment_kind')} name="payment_kind" value={String(v.payment_kind ?? '')} onChange={(e) => ed.set({ payment_kind: e.target.value })} hasError={!!fieldError('payment_kind')} errorMessage={fieldError('payment_kind')} />
              <SwitchField label={t('fields.active')} name="active" isChecked={v.active !== false} onChange={(e) => ed.set({ active: e.target.checked })} />
              <Flex direction="column" gap="small" data-testid="contract-items">
                <Text fontWeight="bold">{t('docs.terms')}</Text>
                {items.map((it, i) => (
                  <fieldset key={i} className="items-editor__row" data-testid="contract-item">
                    <legend className="visually-hidden">{t('docs.itemN', { n: i + 1 })}</legend>
                    <Flex gap="small" alignItems="flex-end" wrap="wrap">
                      <TextField flex="0 0 5rem" label={t('fields.number')} name={`items.${i}.number`} type="number" min={1} value={it.number ? String(it.number) : ''} placeholder={String(i + 1)} onChange={(e) => setItem(i, { number: e.target.value ? Number(e.target.value) : null })} hasError={!!fieldError(`items[${i}].number`)} errorMessage={fieldError(`items[${i}].number`)} />
                      <TextAreaField flex="1 1 16rem" label={t('docs.term')} name={`items.${i}.content`} rows={2} value={it.content} onChange={(e) => setItem(i, { content: e.target.value })} hasError={!!fieldError(`items[${i}].content`)} errorMessage={fieldError(`items[${i}].content`)} />
                      <Button size="small" variation="link" type="button" onClick={() => ed.set({ items: items.filter((_, j) => j !== i) })} aria-label={t('docs.removeItem', { n: i + 1 })}>
                        <AppIcon name="trash" />
                      </Button>
                    </Flex>
                  </fieldset>
                ))}
                <Button size="small" alignSelf="flex-start" type="button" onClick={() => ed.set({ items: [...items, { number: Math.max(0, ...items.map((x) => x.number ?? 0)) + 1, content: '' }] })} data-testid="add-term">
                  <AppIcon name="plus" /> {t('docs.addTerm')}
                </Button>
              </Flex>
              <Flex gap="small" justifyContent="flex-end">
                <Button type="button" onClick={ed.cancel} isDisabled={ed.saving}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variation="primary" isLoading={ed.saving} loadingText={t('common.saving')} data-testid="save-contract">
                  {t('common.save')}
                </Button>
              </Flex>
            </Flex>
          </form>
        )}
      </Card>
    </Page>
  );
}
