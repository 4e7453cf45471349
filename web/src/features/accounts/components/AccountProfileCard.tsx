// The admin dashboard's profile card (SPEC §2, §6): the Group's name and
// billing email; admins edit them (a blank name or billing email is refused
// by the server with the field errors shown under the fields).

import { Button, Card, Flex, Heading, Placeholder, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { DetailList } from '../../../components/records/RecordShow';
import type { Account } from '../../../lib/accounts';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { updateAccount } from '../api/accounts';

function EditAccount({ account, onDone }: { account: Account; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(account.name ?? '');
  const [billingEmail, setBillingEmail] = useState(account.billing_email ?? '');
  const [local, setLocal] = useState<ApiError | null>(null);
  const m = useMutation({
    mutationFn: () => updateAccount(account, { name: name.trim(), billing_email: billingEmail.trim() }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['account', account._id] });
      await qc.invalidateQueries({ queryKey: ['memberships'] });
      onDone();
    },
  });
  const error = local ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setLocal(clientValidationError({ name: ['cant-be-blank'] }));
      return;
    }
    setLocal(null);
    m.mutate();
  };
  return (
    <form onSubmit={submit} noValidate data-testid="account-form">
      <Flex direction="column" gap="small">
        <ErrorAlert
          error={error}
          onDismiss={() => {
            setLocal(null);
            m.reset();
          }}
        />
        <TextField label={t('fields.name')} name="name" value={name} onChange={(e) => setName(e.target.value)} hasError={!!fieldError('name')} errorMessage={fieldError('name')} autoFocus />
        <TextField
          label={t('fields.billing_email')}
          name="billing_email"
          type="email"
          value={billingEmail}
          onChange={(e) => setBillingEmail(e.target.value)}
          {...errorOf(fieldError('billing_email'))}
        />
        <Flex gap="small" justifyContent="flex-end">
          <Button type="button" size="small" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" size="small" variation="primary" isLoading={m.isPending}>
            {t('common.save')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

export function AccountProfileCard({ account, loading, admin }: { account: Account | undefined; loading: boolean; admin: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <Card variation="outlined" data-testid="account-profile-card">
      <Flex justifyContent="space-between" alignItems="center" marginBottom="small">
        <Heading level={5}>{t('accounts.admin.profile')}</Heading>
        {admin && account && !editing ? (
          <Button size="small" onClick={() => setEditing(true)} data-testid="account-edit">
            <AppIcon name="edit" /> {t('records.edit')}
          </Button>
        ) : null}
      </Flex>
      {loading || !account ? (
        <Placeholder />
      ) : editing ? (
        <EditAccount account={account} onDone={() => setEditing(false)} />
      ) : (
        <DetailList
          rows={[
            { key: 'name', label: 'fields.name', value: account.name },
            { key: 'billing_email', label: 'fields.billing_email', value: account.billing_email },
            { key: 'plan', label: 'profile.groups.plan', value: t(`plans.${account.v7_plan ?? 'free'}`, { defaultValue: account.v7_plan ?? '' }) },
          ]}
        />
      )}
    </Card>
  );
}
