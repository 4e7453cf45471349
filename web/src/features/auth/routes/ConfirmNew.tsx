// confirm#new: ask for a new confirmation link.

import { requestConfirmation } from '../api/request-confirmation';
import { EmailRequestForm } from '../components/EmailRequestForm';

export function Component() {
  return <EmailRequestForm textKey="auth.confirm" request={requestConfirmation} sentTestId="confirm-sent" />;
}
