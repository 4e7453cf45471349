// password#new: ask for a reset link.

import { Alert, Button, Flex, TextField } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { AppLink } from '../../../components/RouterLink';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { requestPasswordReset } from '../api/request-password-reset';
import { AuthCard } from '../components/AuthCard';

export function Component() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const m = useMutation({ mutationFn: requestPasswordReset });
  const [localError, setLocalError] = useState<ApiError | null>(null);
  const error = localError ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setLocalError(clientValidationError({ email: ['cant-be-blank'] }));
      return;
    }
    setLocalError(null);
    m.mutate(email);
  };

  return (
    <AuthCard
      title={t('auth.password.newTitle')}
      subtitle={t('auth.password.newSubtitle')}
      footer={<AppLink to={paths.login()}>{t('auth.backToLogin')}</AppLink>}
    >
      {m.isSuccess ? (
        <Alert variation="success" heading={t('auth.password.sentTitle')} data-testid="reset-sent">
          {t('auth.password.sent', { email })}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Flex direction="column" gap="medium">
            <ErrorAlert
              error={error}
              onDismiss={() => {
                setLocalError(null);
                m.reset();
              }}
            />
            <TextField
              label={t('fields.email')}
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              hasError={!!fieldError('email')}
              errorMessage={fieldError('email')}
              autoFocus
            />
            <Button type="submit" variation="primary" isLoading={m.isPending} isFullWidth>
              {t('auth.password.send')}
            </Button>
          </Flex>
        </form>
      )}
    </AuthCard>
  );
}
