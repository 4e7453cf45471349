import { Alert } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useAccountConfig } from '../../../lib/account-config';

/** The one-admin alert (SPEC §6): shown when the Group's confirmed plan is free. */
export function OneAdminAlert({ db }: { db: string }) {
  const { t } = useTranslation();
  const cfg = useAccountConfig(db);
  if ((cfg['confirmed-plan'] ?? 'free') !== 'free') return null;
  return (
    <Alert variation="info" marginBottom="medium" data-testid="one-admin-alert">
      {t('accounts.memberships.oneAdmin')}
    </Alert>
  );
}
