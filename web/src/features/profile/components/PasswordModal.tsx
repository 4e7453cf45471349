// The password modal (profile mode 3): new password, confirmation and the
// current password; a mismatch is caught before anything is sent.

import { Button, Flex } from '@aws-amplify/ui-react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { validatePasswordPair } from '../../../lib/validation';
import { changePassword } from '../api/change-password';

export function PasswordModal({
  open,
  userId,
  rev,
  onClose,
  onSaved,
}: {
  open: boolean;
  userId: string;
  rev: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ password: '', password_confirmation: '', current_password: '' });
  const [localError, setLocalError] = useState<ApiError | null>(null);
  const m = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      setForm({ password: '', password_confirmation: '', current_password: '' });
      onSaved();
    },
  });
  const error = localError ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));

  const close = () => {
    setLocalError(null);
    m.reset();
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid =
      validatePasswordPair(form) ?? (form.current_password ? null : clientValidationError({ current_password: ['cant-be-blank'] }));
    if (invalid) {
      setLocalError(invalid);
      return;
    }
    setLocalError(null);
    m.mutate({ userId, rev, ...form });
  };

  const pw = (name: keyof typeof form, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      name={name}
      autoComplete={autoComplete}
      value={form[name]}
      onChange={set(name)}
      {...errorOf(fieldError(name))}
    />
  );

  return (
    <Modal open={open} title={t('profile.password.title')} onClose={close} closeLabel={t('common.close')} testId="password-modal">
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="medium">
          <ErrorAlert
            error={error}
            onDismiss={() => {
              setLocalError(null);
              m.reset();
            }}
          />
          {pw('password', t('fields.new_password'), 'new-password')}
          {pw('password_confirmation', t('fields.password_confirmation'), 'new-password')}
          {pw('current_password', t('fields.current_password'), 'current-password')}
          <Flex justifyContent="flex-end" gap="small">
            <Button type="button" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variation="primary" isLoading={m.isPending}>
              {t('profile.password.save')}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Modal>
  );
}
