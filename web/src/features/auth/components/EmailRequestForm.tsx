// The "send me a link" screen shared by confirm#new and password#new: one
// email field, a client check, then a success notice. The server answers
// 202 whether or not the address is known, so the notice never tells.

import { Alert, Button, Flex, TextField } from '@aws-amplify/ui-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppLink } from '../../../components/RouterLink';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { AuthCard } from './AuthCard';

type Props = {
  /** i18n prefix with newTitle, newSubtitle, sentTitle, sent and send keys. */
  textKey: 'auth.confirm' | 'auth.password';
  request: (email: string) => Promise<unknown>;
  sentTestId: string;
  /** Shown above the form (the confirmation deadline's notice). */
  notice?: ReactNode;
};

export function EmailRequestForm({ textKey, request, sentTestId, notice }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const m = useMutation({ mutationFn: request });
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
      title={t(`${textKey}.newTitle`)}
      subtitle={t(`${textKey}.newSubtitle`)}
      footer={<AppLink to={paths.login()}>{t('auth.backToLogin')}</AppLink>}
    >
      {m.isSuccess ? (
        <Alert variation="success" heading={t(`${textKey}.sentTitle`)} data-testid={sentTestId}>
          {t(`${textKey}.sent`, { email })}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Flex direction="column" gap="medium">
            {notice}
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
              {...errorOf(fieldError('email'))}
              autoFocus
            />
            <Button type="submit" variation="primary" isLoading={m.isPending} isFullWidth>
              {t(`${textKey}.send`)}
            </Button>
          </Flex>
        </form>
      )}
    </AuthCard>
  );
}
