// The estimate's lines: description, quantity and unit value per row, the
// line total and the estimate's total live as you type (the server computes
// the same in cents); rows are added and removed; a server error keyed
// "items[2].quantity" shows under that input.

import { Button, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { MoneyInput, MoneyText } from '../../../components/records/Money';
import { itemsTotal, lineTotal, type EstimateItem } from '../api/servicedocs';
import { errorOf } from '../../../components/ErrorAlert';

export const emptyItem = (): EstimateItem => ({ description: '', quantity: 1, value: null });

export function EstimateItemsEditor({
  items,
  onChange,
  fieldError,
  currency,
}: {
  /** The Group's currency (useGroupCurrency), whatever the interface language. */
  currency: string;
  items: EstimateItem[];
  onChange: (items: EstimateItem[]) => void;
  fieldError: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<EstimateItem>) => onChange(items.map((it, j) => (j === i ? { ...it, ...patch } : it)));
  return (
    <Flex direction="column" gap="small" data-testid="estimate-items">
      <Text fontWeight="bold">{t('docs.items')}</Text>
      {fieldError('items') ? (
        <Text variation="error" fontSize="small" role="alert">
          {fieldError('items')}
        </Text>
      ) : null}
      {items.map((it, i) => (
        <fieldset key={i} className="items-editor__row" data-testid="estimate-item">
          <legend className="visually-hidden">{t('docs.itemN', { n: i + 1 })}</legend>
          <Flex gap="small" wrap="wrap" alignItems="flex-end">
            <TextField
              flex="3 1 14rem"
              label={t('docs.itemDescription')}
              name={`items.${i}.description`}
              value={it.description}
              isRequired
              onChange={(e) => set(i, { description: e.target.value })}
              {...errorOf(fieldError(`items[${i}].description`))}
            />
            <TextField
              flex="1 1 5rem"
              label={t('docs.quantity')}
              name={`items.${i}.quantity`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={it.quantity === null || Number.isNaN(it.quantity) ? '' : String(it.quantity)}
              onChange={(e) => set(i, { quantity: e.target.value === '' ? null : Number(e.target.value) })}
              {...errorOf(fieldError(`items[${i}].quantity`))}
            />
            <div style={{ flex: '2 1 8rem' }}>
              <MoneyInput
                label={t('docs.unitValue')}
                name={`items.${i}.value`}
                units={it.value}
                currency={currency}
                onChange={(v) => set(i, { value: v })}
                error={fieldError(`items[${i}].value`)}
              />
            </div>
            <Text flex="1 1 7rem" className="estimate-line-total" data-testid="line-total" aria-label={t('docs.lineTotal')}>
              <MoneyText units={lineTotal(it)} currency={currency} />
            </Text>
            <Button
              size="small"
              variation="link"
              type="button"
              onClick={() => onChange(items.filter((_, j) => j !== i))}
              isDisabled={items.length === 1}
              aria-label={t('docs.removeItem', { n: i + 1 })}
              data-testid="remove-item"
            >
              <AppIcon name="trash" />
            </Button>
          </Flex>
        </fieldset>
      ))}
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Button size="small" type="button" onClick={() => onChange([...items, emptyItem()])} data-testid="add-item">
          <AppIcon name="plus" /> {t('docs.addItem')}
        </Button>
        <Text fontWeight="bold" data-testid="estimate-total">
          {t('docs.total')}: <MoneyText units={itemsTotal(items)} currency={currency} />
        </Text>
      </Flex>
    </Flex>
  );
}
