// contracts#new and #edit: description, customer, payment, active, and its
// terms (numbered rows, added and removed in place; a new row takes the
// next number).

import { Button, Flex, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeclaredForm, type FieldControl, type FormDeclaration } from '../../../components/records/DeclaredForm';
import { AppIcon } from '../../../components/icons';
import type { ContractItem } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';

/** TermsControl: the contract's numbered terms, each row's errors under its controls. */
function TermsControl({ value, set, errorOf }: FieldControl) {
  const { t } = useTranslation();
  const items = (Array.isArray(value) ? value : []) as ContractItem[];
  const setItem = (i: number, patch: Partial<ContractItem>) => set({ items: items.map((it, j) => (j === i ? { ...it, ...patch } : it)) });
  return (
    <Flex direction="column" gap="small" data-testid="contract-items">
      <Text fontWeight="bold">{t('docs.terms')}</Text>
      {errorOf('items') ? <Text variation="error" fontSize="small">{errorOf('items')}</Text> : null}
      {items.map((it, i) => (
        <fieldset key={i} className="items-editor__row" data-testid="contract-item">
          <legend className="visually-hidden">{t('docs.itemN', { n: i + 1 })}</legend>
          <Flex gap="small" alignItems="flex-end" wrap="wrap">
            <TextField flex="0 0 5rem" label={t('fields.number')} name={`items[${i}].number`} type="number" min={1} value={it.number ? String(it.number) : ''} placeholder={String(i + 1)} onChange={(e) => setItem(i, { number: e.target.value ? Number(e.target.value) : null })} hasError={!!errorOf(`items[${i}].number`)} errorMessage={errorOf(`items[${i}].number`)} />
            <TextAreaField flex="1 1 16rem" label={t('docs.term')} name={`items[${i}].content`} rows={2} value={it.content} onChange={(e) => setItem(i, { content: e.target.value })} hasError={!!errorOf(`items[${i}].content`)} errorMessage={errorOf(`items[${i}].content`)} />
            <Button size="small" variation="link" type="button" onClick={() => set({ items: items.filter((_, j) => j !== i) })} aria-label={t('docs.removeItem', { n: i + 1 })}>
              <AppIcon name="trash" />
            </Button>
          </Flex>
        </fieldset>
      ))}
      <Button size="small" alignSelf="flex-start" type="button" onClick={() => set({ items: [...items, { number: Math.max(0, ...items.map((x) => x.number ?? 0)) + 1, content: '' }] })} data-testid="add-term">
        <AppIcon name="plus" /> {t('docs.addTerm')}
      </Button>
    </Flex>
  );
}

export const CONTRACT_FORM: FormDeclaration = {
  klass: 'Contract',
  saveTestId: 'save-contract',
  fields: [
    { name: 'description', type: 'textarea', rows: 3 },
    { name: 'customer_id', type: 'ref', ref: 'Customer' },
    { name: 'payment_kind', type: 'text' },
    { name: 'active', type: 'boolean' },
    { name: 'items', type: 'custom', render: (c) => <TermsControl {...c} /> },
  ],
};

export function Component() {
  const { t } = useTranslation();
  const [sp] = useSearchParams();
  const ed = useRecordEditor('contracts', 'Contract', { active: true, items: [], customer_id: sp.get('customer') || null });
  const title = ed.editing ? t('docs.contracts.edit') : t('docs.contracts.new');
  return <DeclaredForm form={CONTRACT_FORM} ed={ed} title={title} breadcrumbs={<DeskCrumbs db={ed.db} set="contracts" current={title} />} />;
}
