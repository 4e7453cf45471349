// Phones and addresses of a customer, edited in place: rows of inputs, add
// and remove, one save for the list (the server checks each item; errors
// come keyed "phones[1].number" and show under that input).

import { Button, CheckboxField, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { asApiError } from '../../../lib/errors';
import { saveRecord } from '../api/customers';
import type { Customer } from '../api/types';

type Item = Record<string, string | boolean | undefined>;

export function ItemsEditor({
  db,
  customer,
  list,
  fields,
}: {
  db: string;
  customer: Customer;
  list: 'phones' | 'addresses';
  /** The text fields of one item, in order; the first is shown widest. */
  fields: readonly string[];
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stored = (customer[list] ?? []) as Item[];
  const [items, setItems] = useState<Item[]>(stored);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setItems((customer[list] ?? []) as Item[]);
  }, [customer, list, editing]);
  const save = useMutation({
    mutationFn: () => saveRecord(db, 'Customer', { ...customer, [list]: items.map(clean) }),
    onSuccess: async () => {
      setEditing(false);
      await qc.invalidateQueries({ queryKey: ['tickets', db, 'customer', customer._id] });
    },
  });
  const fieldError = useFieldError(save.error ? asApiError(save.error) : null);
  const set = (i: number, k: string, v: string | boolean) => setItems((xs) => xs.map((x, j) => (j === i ? { ...x, [k]: v } : x)));

  if (!editing) {
    return (
      <Flex direction="column" gap="xs" data-testid={`${list}-list`}>
        {stored.length === 0 ? <Text variation="tertiary">{t(`tickets.no_${list}`)}</Text> : null}
        {stored.map((it, i) => (
          <Text key={i} fontSize="small">
            {fields.map((f) => it[f]).filter(Boolean).join(', ')}
            {it.main ? <span className="muted"> · {t('tickets.main')}</span> : null}
          </Text>
        ))}
        <Button size="small" alignSelf="flex-start" onClick={() => setEditing(true)} data-testid={`edit-${list}`}>
          <AppIcon name="edit" /> {t(`tickets.edit_${list}`)}
        </Button>
      </Flex>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      noValidate
      data-testid={`${list}-editor`}
    >
      <Flex direction="column" gap="small">
        <ErrorAlert error={save.error ? asApiError(save.error) : null} onDismiss={() => save.reset()} />
        {items.map((it, i) => (
          <fieldset key={i} className="items-editor__row">
            <legend className="visually-hidden">{t(`tickets.item_${list}`, { n: i + 1 })}</legend>
            <Flex gap="small" wrap="wrap" alignItems="flex-end">
              {fields.map((f, fi) => (
                <TextField
                  key={f}
                  size="small"
                  label={t(`tickets.itemField.${f}`)}
                  name={`${list}-${i}-${f}`}
                  value={String(it[f] ?? '')}
                  onChange={(e) => set(i, f, e.target.value)}
                  hasError={!!fieldError(`${list}[${i}].${f}`)}
                  errorMessage={fieldError(`${list}[${i}].${f}`)}
                  {...(fi === 0 ? { autoFocus: i === items.length - 1 } : {})}
                />
              ))}
              <CheckboxField name={`${list}-${i}-main`} label={t('tickets.main')} value="yes" checked={it.main === true} onChange={(e) => set(i, 'main', e.target.checked)} />
              <Button size="small" variation="link" onClick={() => setItems((xs) => xs.filter((_, j) => j !== i))} aria-label={t('tickets.removeItem', { n: i + 1 })}>
                <AppIcon name="trash" />
              </Button>
            </Flex>
          </fieldset>
        ))}
        <Flex gap="small" wrap="wrap">
          <Button size="small" onClick={() => setItems((xs) => [...xs, {}])} data-testid={`add-${list}`}>
            <AppIcon name="plus" /> {t(`tickets.add_${list}`)}
          </Button>
          <Button size="small" onClick={() => { save.reset(); setEditing(false); }}>
            {t('common.cancel')}
          </Button>
          <Button size="small" type="submit" variation="primary" isLoading={save.isPending} data-testid={`save-${list}`}>
            {t('common.save')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

function clean(it: Item): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(it)) if (v !== '' && v !== undefined) out[k] = typeof v === 'string' ? v.trim() : v;
  return out;
}
