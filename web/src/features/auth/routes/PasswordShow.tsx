// password#show: the reset form behind the e-mailed link, then the done page.

import { Alert, Button, Flex } from '@aws-amplify/ui-react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { validatePasswordPair } from '../../../lib/validation';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from '../components/AuthCard';

export function Component() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [localError, setLocalError] = useState<ApiError | null>(null);
  const m = useMutation({ mutationFn: resetPassword });
  const error = localError ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validatePasswordPair({ password, password_confirmation: confirmation });
    if (invalid) {
      setLocalError(invalid);
      return;
    }
    setLocalError(null);
    m.mutate({ token, password, password_confirmation: confirmation });
  };

  if (m.isSuccess) {
    return (
      <AuthCard title={t('auth.password.doneTitle')}>
        <Flex direction="column" gap="medium" data-testid="reset-done">
          <Alert variation="success">{t('auth.password.done')}</Alert>
          <ButtonLink to={paths.login()} variation="primary">
            {t('auth.login.submit')}
          </ButtonLink>
        </Flex>
      </AuthCard>
    );
  }

  const expired = error?.status === 404;
  return (
    <AuthCard
      title={t('auth.password.showTitle')}
      subtitle={t('auth.password.showSubtitle')}
      footer={<AppLink to={paths.passwordNew()}>{t('auth.password.requestNew')}</AppLink>}
    >
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="medium">
          <ErrorAlert
            error={error}
            onDismiss={() => {
              setLocalError(null);
              m.reset();
            }}
          />
          <PasswordInput
            label={t('fields.new_password')}
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...errorOf(fieldError('password'))}
            autoFocus
          />
          <PasswordInput
            label={t('fields.password_confirmation')}
            name="password_confirmation"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
            {...errorOf(fieldError('password_confirmation'))}
          />
          <Button type="submit" variation="primary" isLoading={m.isPending} isDisabled={expired} isFullWidth>
            {t('auth.password.save')}
          </Button>
        </Flex>
      </form>
    </AuthCard>
  );
}
