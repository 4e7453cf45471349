// The phone and address cards (SPEC §2 Admin, §3): each list is one JSON
// adjustment; admins add, edit and delete entries, each rewriting the list.
// The phones card also holds the Group's country, in which numbers are read
// (and stored in E.164 by the server); a number that is not one is flagged
// under its field.

import { Badge, Button, Card, Flex, Heading, Placeholder, SelectField, SwitchField, Text, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { findAdjustment, saveAdjustment, useAccountConfig } from '../../../lib/account-config';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { groupCurrency } from '../../../lib/money';
import { PHONE_INVALID, regionName, useGroupPhones, type GroupPhones } from '../../../lib/phones';
import { ADDRESS_FIELDS, parseContacts, PHONE_FIELDS, removeContact, upsertContact, type Contact } from '../contacts';

export type ContactKind = 'phones' | 'addresses';

const FIELDS: Record<ContactKind, readonly string[]> = { phones: PHONE_FIELDS, addresses: ADDRESS_FIELDS };

function summary(kind: ContactKind, c: Contact, phones?: GroupPhones): string {
  const s = (k: string) => (typeof c[k] === 'string' ? (c[k] as string).trim() : '');
  if (kind === 'phones') return phones ? phones.format(s('number')) : s('number');
  const line1 = [s('street'), s('number')].filter(Boolean).join(', ');
  const line2 = [s('complement'), s('neighborhood')].filter(Boolean).join(' · ');
  const line3 = [s('city'), s('state'), s('zip_code')].filter(Boolean).join(' ');
  return [line1, line2, line3].filter(Boolean).join(' — ');
}

function ContactForm({
  kind,
  initial,
  onSave,
  onCancel,
  saving,
  error,
  phones,
}: {
  kind: ContactKind;
  initial: Contact;
  phones: GroupPhones;
  onSave: (c: Contact) => void;
  onCancel: () => void;
  saving: boolean;
  error: ReturnType<typeof asApiError> | null;
}) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Contact>(initial);
  const [local, setLocal] = useState<ApiError | null>(null);
  const fieldError = useFieldError(local);
  const badNumber = (v: Contact) => {
    const r = kind === 'phones' ? phones.check(typeof v.number === 'string' ? v.number : '') : undefined;
    return r && !r.blank && !r.e164 ? clientValidationError({ number: [PHONE_INVALID] }) : null;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const bad = badNumber(values);
    setLocal(bad);
    if (!bad) onSave(values);
  };
  return (
    <form onSubmit={submit} noValidate data-testid={`${kind}-form`}>
      <Flex direction="column" gap="small">
        <ErrorAlert error={error} showFields />
        {FIELDS[kind].map((f) =>
          f === 'main' ? (
            <SwitchField
              key={f}
              label={t('accounts.contacts.main')}
              name="main"
              labelPosition="end"
              isChecked={values.main === true}
              onChange={(e) => setValues((v) => ({ ...v, main: e.target.checked }))}
            />
          ) : (
            <TextField
              key={f}
              label={t(`fields.${f}`)}
              name={f}
              value={typeof values[f] === 'string' ? (values[f] as string) : ''}
              onChange={(e) => {
                const next = { ...values, [f]: e.target.value };
                setValues(next);
                // A flagged number is re-read as it is corrected, so the message goes as soon as it is right.
                if (local && f === 'number') setLocal(badNumber(next));
              }}
              onBlur={() => f === 'number' && setLocal(badNumber(values))}
              {...errorOf(fieldError(f))}
              {...(kind === 'phones' && f === 'number' ? { type: 'tel', descriptiveText: t('accounts.contacts.numberHint', { country: regionName(phones.country, i18n.language) }) } : {})}
              autoFocus={f === 'description'}
            />
          ),
        )}
        <Flex gap="small" justifyContent="flex-end">
          <Button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variation="primary" isLoading={saving} data-testid={`${kind}-save`}>
            {t('common.save')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

/**
 * SettingSelect: one Group setting chosen from a list, saved as soon as it
 * is picked (admins only), the error under it.
 */
function SettingSelect({ db, admin, setting, current, options }: { db: string; admin: boolean; setting: 'country' | 'currency'; current: string; options: { code: string; name: string }[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (value: string) => saveAdjustment(db, setting, value),
    onSettled: () => qc.invalidateQueries({ queryKey: ['account-config', db] }),
  });
  const value = save.isPending && save.variables ? save.variables : current;
  return (
    <Flex direction="column" gap="xxs" marginBottom="small">
      <SelectField
        label={t(`fields.${setting}`)}
        name={setting}
        size="small"
        value={value}
        isDisabled={!admin || save.isPending}
        descriptiveText={t(`accounts.contacts.${setting}Help`)}
        onChange={(e) => save.mutate(e.target.value)}
        data-testid={`group-${setting}`}
      >
        {options.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <ErrorAlert error={save.error ? asApiError(save.error) : null} onDismiss={() => save.reset()} />
    </Flex>
  );
}

/** CountryField: the Group's country (phones are read in it). */
function CountryField({ db, admin, phones }: { db: string; admin: boolean; phones: GroupPhones }) {
  const { i18n } = useTranslation();
  const countries = (phones.lib?.getCountries() ?? [phones.country])
    .map((c) => ({ code: c, name: regionName(c, i18n.language) }))
    .sort((a, b) => a.name.localeCompare(b.name, i18n.language));
  return <SettingSelect db={db} admin={admin} setting="country" current={phones.country} options={countries} />;
}

/** CurrencyField: the Group's currency (its estimates'), from the ISO 4217 codes the browser knows. */
function CurrencyField({ db, admin }: { db: string; admin: boolean }) {
  const { i18n } = useTranslation();
  const current = groupCurrency(useAccountConfig(db));
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
  const names = new Intl.DisplayNames([i18n.language], { type: 'currency' });
  const codes = all.includes(current) ? all : [current, ...all];
  return <SettingSelect db={db} admin={admin} setting="currency" current={current} options={codes.map((c) => ({ code: c, name: `${c} · ${names.of(c) ?? c}` }))} />;
}

export function ContactsCard({ db, kind, admin }: { db: string; kind: ContactKind; admin: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const phones = useGroupPhones(db);
  const key = ['contacts', db, kind];
  const q = useQuery({ queryKey: key, queryFn: () => findAdjustment(db, kind).then((d) => parseContacts(d?.value)) });
  const list = q.data ?? [];
  const [editing, setEditing] = useState<{ index: number | null; item: Contact } | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const write = useMutation({
    mutationFn: async (change: (current: Contact[]) => Contact[]) => {
      // Rewrite the list as stored now, not as this screen last saw it.
      const current = parseContacts((await findAdjustment(db, kind))?.value);
      await saveAdjustment(db, kind, change(current));
    },
    onSuccess: () => {
      setEditing(null);
      setDeleting(null);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  const title = t(`accounts.contacts.${kind}`);
  return (
    <Card variation="outlined" data-testid={`${kind}-card`}>
      <Flex justifyContent="space-between" alignItems="center" marginBottom="small">
        <Heading level={5}>{title}</Heading>
        {admin ? (
          <Button
            size="small"
            onClick={() => {
              write.reset();
              setEditing({ index: null, item: { main: list.length === 0 } });
            }}
            data-testid={`${kind}-new`}
          >
            <AppIcon name="plus" /> {t('records.new')}
          </Button>
        ) : null}
      </Flex>
      {kind === 'phones' ? <CountryField db={db} admin={admin} phones={phones} /> : null}
      {kind === 'phones' ? <CurrencyField db={db} admin={admin} /> : null}
      {q.isPending ? (
        <Placeholder />
      ) : list.length === 0 ? (
        <Text variation="secondary">{t(`accounts.contacts.${kind}Empty`)}</Text>
      ) : (
        <Flex as="ul" direction="column" gap="small" className="plain-list">
          {list.map((c, i) => (
            <Flex as="li" key={i} justifyContent="space-between" alignItems="flex-start" gap="small" data-testid={`${kind}-item`}>
              <Flex direction="column" gap="xxs">
                <Text fontWeight="bold">
                  {typeof c.description === 'string' && c.description ? c.description : title}{' '}
                  {c.main === true ? (
                    <Badge size="small" variation="info">
                      {t('accounts.contacts.main')}
                    </Badge>
                  ) : null}
                </Text>
                <Text fontSize="small" variation="secondary">
                  {summary(kind, c, phones)}
                </Text>
              </Flex>
              {admin ? (
                <Flex gap="xxs">
                  <Button
                    size="small"
                    variation="link"
                    aria-label={t('records.edit')}
                    onClick={() => {
                      write.reset();
                      setEditing({ index: i, item: c });
                    }}
                  >
                    <AppIcon name="edit" />
                  </Button>
                  <Button size="small" variation="link" aria-label={t('records.delete')} onClick={() => setDeleting(i)}>
                    <AppIcon name="trash" />
                  </Button>
                </Flex>
              ) : null}
            </Flex>
          ))}
        </Flex>
      )}
      <Modal
        open={!!editing}
        title={editing?.index === null ? t('records.newTitle', { what: title }) : t('records.editTitle', { what: title })}
        onClose={() => setEditing(null)}
        closeLabel={t('common.close')}
      >
        {editing ? (
          <ContactForm
            kind={kind}
            phones={phones}
            initial={editing.item}
            saving={write.isPending}
            error={write.error ? asApiError(write.error) : null}
            onCancel={() => setEditing(null)}
            onSave={(item) => {
              const at = editing.index;
              write.mutate((current) => upsertContact(current, item, at));
            }}
          />
        ) : null}
      </Modal>
      <ConfirmDelete
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting !== null && write.mutate((current) => removeContact(current, deleting))}
        busy={write.isPending}
        what={deleting !== null ? summary(kind, list[deleting] ?? {}, phones) || title : ''}
      />
    </Card>
  );
}
