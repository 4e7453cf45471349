// confirm#new: ask for a new confirmation link. Past the confirmation
// deadline (SPEC §9) signing in leads here, with the notice that access
// comes back once the email is confirmed.

import { Alert } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { requestConfirmation } from '../api/request-confirmation';
import { EmailRequestForm } from '../components/EmailRequestForm';

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const notice = session?.confirmationExpired ? (
    <Alert variation="warning" heading={t('dashboard.confirm.title')} data-testid="confirm-expired">
      {t('dashboard.confirm.over')}
    </Alert>
  ) : null;
  return <EmailRequestForm textKey="auth.confirm" request={requestConfirmation} sentTestId="confirm-sent" notice={notice} />;
}
