// The billing-email modal (SPEC §2, §5): a billing email is required before
// paying; an empty or malformed one is refused with "is invalid" under the
// field, and nothing is sent for an empty one.

import { Button, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { saveBillingEmail } from '../api/billing';

export function BillingEmailModal({ db, current, open, onClose }: { db: string; current: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [email, setEmail] = useState(current);
  const [local, setLocal] = useState<ApiError | null>(null);
  const m = useMutation({
    mutationFn: (v: string) => saveBillingEmail(db, v),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: ['billing', db] }), qc.invalidateQueries({ queryKey: ['account', db] })]);
      onClose();
    },
  });
  const error = local ?? (m.error ? asApiError(m.error) : null);
  // The server names the field billing_email or email; either shows under it.
  const fieldError = useFieldError(error);
  const fieldMsg = fieldError('billing_email') ?? fieldError('email');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = email.trim();
    if (!v || !/^[^\s@]+@[^\s@]+$/.test(v)) {
      setLocal(clientValidationError({ billing_email: ['is invalid'] }));
      return;
    }
    setLocal(null);
    m.mutate(v);
  };
  return (
    <Modal open={open} title={t('billing.email.title')} onClose={onClose} closeLabel={t('common.close')} testId="billing-email-modal">
      <form onSubmit={submit} noValidate>
        {error && !fieldMsg ? <ErrorAlert error={error} /> : null}
        <TextField
          label={t('fields.billing_email')}
          descriptiveText={t('billing.email.help')}
          name="billing_email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          {...errorOf(fieldMsg)}
        />
        <div className="billing-modal__actions">
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variation="primary" isLoading={m.isPending} data-testid="billing-email-save">
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
