import { api } from '../../../lib/api';

/** POST /_users/_confirmation {email} → 202; never tells whether the address is known. */
export function requestConfirmation(email: string): Promise<{ ok: boolean }> {
  return api.post('_users/_confirmation', { email: email.trim() });
}
