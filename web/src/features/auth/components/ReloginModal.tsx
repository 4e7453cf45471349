// The re-login modal (SPEC §4): raised by the "logged-out" event on routes
// that need sign-in; signing in again closes it and the page reloads its data.

import { Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { AppLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { LoginForm } from './LoginForm';

export function ReloginModal({ open, onSuccess }: { open: boolean; onSuccess: () => void | Promise<void> }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('errors.messages.please-login-again')} onClose={() => {}} dismissible={false} testId="relogin-modal">
      <Text variation="secondary" marginBottom="medium">
        {t('auth.relogin.message')}
      </Text>
      <LoginForm
        onSuccess={onSuccess}
        showRemember={false}
        extra={<AppLink to={paths.passwordNew()}>{t('auth.login.forgot')}</AppLink>}
      />
    </Modal>
  );
}
