// The create-a-Group form (account#new and groups#new): a name, the server's
// field errors under it and its free-Group limit messages in the alert.

import { Button, Flex, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { clientValidationError, type ApiError } from '../../../lib/errors';

export function GroupForm({
  onSubmit,
  saving,
  error,
  onDismissError,
  submitLabel,
}: {
  onSubmit: (name: string) => void;
  saving: boolean;
  error: ApiError | null;
  onDismissError: () => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [local, setLocal] = useState<ApiError | null>(null);
  const shown = local ?? error;
  const fieldError = useFieldError(shown);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setLocal(clientValidationError({ name: ['cant-be-blank'] }));
      return;
    }
    setLocal(null);
    if (!saving) onSubmit(name.trim());
  };
  return (
    <form onSubmit={submit} noValidate data-testid="group-form">
      <Flex direction="column" gap="medium">
        <ErrorAlert
          error={shown}
          onDismiss={() => {
            setLocal(null);
            onDismissError();
          }}
        />
        <TextField
          label={t('fields.name')}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          {...errorOf(fieldError('name'))}
          isRequired
          autoFocus
        />
        <Flex justifyContent="flex-end">
          <Button type="submit" variation="primary" isLoading={saving} data-testid="group-create">
            {submitLabel}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
