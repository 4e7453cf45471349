import { api } from '../../../lib/api';

/** POST /_users/_password {email} → 202; never tells whether the address is known. */
export function requestPasswordReset(email: string): Promise<{ ok: boolean }> {
  return api.post('_users/_password', { email: email.trim() });
}
