// "Create customer" from the ticket form: a name and a phone in a modal,
// saved at once and chosen in the picker.

import { Button, Flex, TextField } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { PHONE_INVALID, useGroupPhones } from '../../../lib/phones';
import { saveRecord } from '../api/customers';

export function CustomerQuickAdd({ db, open, onClose, onCreated }: { db: string; open: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const fieldError = useFieldError(error);
  const phones = useGroupPhones(db);
  const phoneError = fieldError('phones') ?? fieldError('phones[0].number');
  const save = useMutation({
    mutationFn: () => saveRecord(db, 'Customer', { name: name.trim(), phones: phone.trim() ? [{ number: phone.trim(), main: true }] : [] }),
    onSuccess: (res) => {
      setName('');
      setPhone('');
      setError(null);
      onCreated(res.id);
    },
    onError: (e) => setError(asApiError(e)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const checked = phones.check(phone);
    const fields: Record<string, string[]> = {};
    if (!name.trim()) fields.name = ["can't be blank"];
    if (checked && !checked.blank && !checked.e164) fields['phones[0].number'] = [PHONE_INVALID];
    if (Object.keys(fields).length) {
      setError(clientValidationError(fields));
      return;
    }
    save.mutate();
  };
  return (
    <Modal open={open} title={t('tickets.newCustomer')} onClose={onClose} closeLabel={t('common.close')} testId="customer-quick-add">
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="small">
          <ErrorAlert error={error && Object.keys(error.fields).length === 0 ? error : null} onDismiss={() => setError(null)} />
          <TextField label={t('fields.name')} name="customer-name" value={name} onChange={(e) => setName(e.target.value)} isRequired hasError={!!fieldError('name')} errorMessage={fieldError('name')} autoFocus />
          <TextField label={t('tickets.phone')} name="customer-phone" type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} hasError={!!phoneError} errorMessage={phoneError} />
          <Flex justifyContent="flex-end" gap="small">
            <Button type="button" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variation="primary" isLoading={save.isPending} data-testid="customer-quick-save">
              {t('common.save')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Modal>
  );
}
