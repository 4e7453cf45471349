// user#login (SPEC §2): e-mail, password, remember me, forgot-password link,
// language selector, links to register and to resend the confirmation.

import { Text } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LanguageSelect } from '../../../components/LanguageSelect';
import { AppLink } from '../../../components/RouterLink';
import { paths, safeReturnPath } from '../../../lib/paths';
import { sessionQuery } from '../../../lib/session';
import { useChangeLocale } from '../../../lib/use-change-locale';
import { AuthCard } from '../components/AuthCard';
import { LoginForm } from '../components/LoginForm';

export function Component() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const changeLocale = useChangeLocale();

  const onSuccess = async () => {
    // The session is read again; its locale sets the language (SPEC §7).
    const s = await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
    // Past the email-confirmation deadline, signing in leads to the confirm screen (SPEC §9).
    navigate(s?.confirmationExpired ? paths.confirmNew() : (safeReturnPath(params.get('return')) ?? paths.home()), { replace: true });
  };

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          <Text>
            {t('auth.login.noAccount')} <AppLink to={paths.register(safeReturnPath(params.get('return')) ?? undefined)}>{t('auth.login.register')}</AppLink>
          </Text>
          <AppLink to={paths.confirmNew()}>{t('auth.login.resend')}</AppLink>
        </>
      }
    >
      <LoginForm
        onSuccess={onSuccess}
        extra={
          <>
            <AppLink to={paths.passwordNew()}>{t('auth.login.forgot')}</AppLink>
            <LanguageSelect onChange={(l) => void changeLocale(l)} />
          </>
        }
      />
    </AuthCard>
  );
}
