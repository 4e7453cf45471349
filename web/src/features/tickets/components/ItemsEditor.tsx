// Phones and addresses of a customer, edited in place: rows of inputs, add
// and remove, one save for the list (the server checks each item; errors
// come keyed "phones[1].number" and show under that input). Phone numbers
// are read in the Group's country as they are typed: one that is not a
// phone number is flagged under its input before anything is sent.

import { Button, CheckboxField, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { PHONE_INVALID, regionName, useGroupPhones } from '../../../lib/phones';
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
  const { t, i18n } = useTranslation();
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
  const phone = useGroupPhones(db);
  const [local, setLocal] = useState<ApiError | null>(null);
  /** badPhones: the phone numbers typed that are not numbers of the Group's country (nor international). */
  const badPhones = (xs: Item[]) => {
    const fields: Record<string, string[]> = {};
    if (list !== 'phones') return null;
    xs.forEach((it, i) => {
      const r = phone.check(String(it.number ?? ''));
      if (r && !r.blank && !r.e164) fields[`phones[${i}].number`] = [PHONE_INVALID];
    });
    return Object.keys(fields).length ? clientValidationError(fields) : null;
  };
  const error = local ?? (save.error ? asApiError(save.error) : null);
  const fieldError = useFieldError(error);
  const set = (i: number, k: string, v: string | boolean) => setItems((xs) => xs.map((x, j) => (j === i ? { ...x, [k]: v } : x)));

  if (!editing) {
    return (
      <Flex direction="column" gap="xs" data-testid={`${list}-list`}>
        {stored.length === 0 ? <Text variation="tertiary">{t(`tickets.no_${list}`)}</Text> : null}
        {stored.map((it, i) => (
          <Text key={i} fontSize="small">
            {fields.map((f) => (list === 'phones' && f === 'number' && typeof it[f] === 'string' ? phone.format(it[f] as string) : it[f])).filter(Boolean).join(', ')}
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
        const bad = badPhones(items);
        setLocal(bad);
        if (!bad) save.mutate();
      }}
      noValidate
      data-testid={`${list}-editor`}
    >
      <Flex direction="column" gap="small">
        <ErrorAlert error={save.error ? asApiError(save.error) : null} onDismiss={() => save.reset()} />
        {list === 'phones' ? (
          <Text fontSize="small" variation="tertiary" data-testid="phones-country">
            {t('tickets.phonesCountry', { country: regionName(phone.country, i18n.language) })}
          </Text>
        ) : null}
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
                  onChange={(e) => {
                    set(i, f, e.target.value);
                    // A flagged number is re-read as it is corrected, so the message goes as soon as it is right.
                    if (local && list === 'phones' && f === 'number') setLocal(badPhones(items.map((x, j) => (j === i ? { ...x, number: e.target.value } : x))));
                  }}
                  onBlur={() => list === 'phones' && f === 'number' && setLocal(badPhones(items))}
                  {...errorOf(fieldError(`${list}[${i}].${f}`))}
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
          <Button size="small" onClick={() => { save.reset(); setLocal(null); setEditing(false); }}>
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
