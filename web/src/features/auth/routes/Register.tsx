// user#register (SPEC §2, §5): e-mail, full name, password, confirmation and
// the terms box; the three client checks send nothing on failure. After the
// account is made the user is signed in.

import { Alert, Button, CheckboxField, Flex, Text, TextField } from '@aws-amplify/ui-react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { AppLink } from '../../../components/RouterLink';
import { asApiError, type ApiError } from '../../../lib/errors';
import { currentLocale } from '../../../lib/i18n';
import { paths, safeReturnPath } from '../../../lib/paths';
import { sessionQuery } from '../../../lib/session';
import { login } from '../api/login';
import { register } from '../api/register';
import { AuthCard } from '../components/AuthCard';
import { validateRegistration } from '../validation';

export function Component() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Where to go once signed up (an invitation); without one, the app's
  // entry, which shows the "check your inbox" note and the first steps.
  const back = safeReturnPath(params.get('return')) ?? undefined;
  // An invitation's sign-up starts with the invited address (issue 22 item 12).
  const [form, setForm] = useState({ email: params.get('email') ?? '', fullname: '', password: '', password_confirmation: '', accept_terms: false });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(false);
  const fieldError = useFieldError(error);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [k]: k === 'accept_terms' ? e.target.checked : e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateRegistration(form);
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await register({ ...form, locale: currentLocale() });
    } catch (err) {
      setError(asApiError(err));
      setBusy(false);
      return;
    }
    try {
      await login({ email: form.email, password: form.password, remember: false });
      await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
      navigate(back ?? paths.app(), { replace: true });
    } catch {
      // The account exists; signing in is left to the user.
      setCreated(true);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <AuthCard title={t('auth.register.createdTitle')}>
        <Alert variation="success">{t('auth.register.created')}</Alert>
        <Flex marginTop="medium">
          <AppLink to={paths.login(back)}>{t('auth.register.goLogin')}</AppLink>
        </Flex>
      </AuthCard>
    );
  }

  const emailError = fieldError('email') ?? fieldError('unconfirmed_email');
  const link = (to: string) => <AppLink to={to} />;
  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <Text>
          {t('auth.register.haveAccount')} <AppLink to={paths.login(back)}>{t('auth.register.login')}</AppLink>
        </Text>
      }
    >
      <form onSubmit={submit} noValidate aria-label={t('auth.register.title')}>
        <Flex direction="column" gap="medium">
          <ErrorAlert error={error} onDismiss={() => setError(null)} alsoUnder={['unconfirmed_email']} />
          <TextField
            label={t('fields.email')}
            name="email"
            type="email"
            autoComplete="email"
            isRequired
            value={form.email}
            onChange={set('email')}
            {...errorOf(emailError)}
            autoFocus
          />
          <TextField
            label={t('fields.fullname')}
            descriptiveText={t('common.optional')}
            name="fullname"
            autoComplete="name"
            value={form.fullname}
            onChange={set('fullname')}
            {...errorOf(fieldError('fullname'))}
          />
          <PasswordInput
            label={t('fields.password')}
            name="password"
            isRequired
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
            {...errorOf(fieldError('password'))}
          />
          <PasswordInput
            label={t('fields.password_confirmation')}
            name="password_confirmation"
            isRequired
            autoComplete="new-password"
            value={form.password_confirmation}
            onChange={set('password_confirmation')}
            {...errorOf(fieldError('password_confirmation'))}
          />
          <CheckboxField
            name="accept_terms"
            value="yes"
            checked={form.accept_terms}
            onChange={set('accept_terms')}
            {...errorOf(fieldError('accept_terms'))}
            label={
              <Trans
                i18nKey="auth.register.acceptTerms"
                components={{ terms: link(paths.terms()), privacy: link(paths.privacy()), refund: link(paths.refund()) }}
              />
            }
          />
          <Button type="submit" variation="primary" isLoading={busy} loadingText={t('common.loading')} isFullWidth>
            {t('auth.register.submit')}
          </Button>
        </Flex>
      </form>
    </AuthCard>
  );
}
