// The e-mail/password form shared by the login screen and the re-login modal.

import { Button, CheckboxField, Flex, TextField } from '@aws-amplify/ui-react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError, type ApiError } from '../../../lib/errors';
import { login, type LoginResponse } from '../api/login';
import { validateLogin } from '../validation';

export function LoginForm({
  onSuccess,
  initialEmail = '',
  showRemember = true,
  extra,
  submitLabel,
}: {
  onSuccess: (res: LoginResponse) => void | Promise<void>;
  initialEmail?: string;
  showRemember?: boolean;
  extra?: ReactNode;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateLogin({ email, password });
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await login({ email, password, remember });
      setPassword('');
      await onSuccess(res);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('auth.login.title')}>
      <Flex direction="column" gap="medium">
        <ErrorAlert error={error} onDismiss={() => setError(null)} />
        <TextField
          label={t('fields.email')}
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        <PasswordInput
          label={t('fields.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {showRemember ? (
          <CheckboxField
            label={t('auth.login.remember')}
            name="remember"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
        ) : null}
        {extra}
        <Button type="submit" variation="primary" isLoading={busy} loadingText={t('common.loading')} isFullWidth>
          {submitLabel ?? t('auth.login.submit')}
        </Button>
      </Flex>
    </form>
  );
}
