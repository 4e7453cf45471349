// password#new: ask for a reset link.

import { requestPasswordReset } from '../api/request-password-reset';
import { EmailRequestForm } from '../components/EmailRequestForm';

export function Component() {
  return <EmailRequestForm textKey="auth.password" request={requestPasswordReset} sentTestId="reset-sent" />;
}
