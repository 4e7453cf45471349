import { api } from '../../../lib/api';
import type { UserDoc } from '../../../lib/current-user';

/** PUT /_users/_confirmation {token} → the confirmed user document. */
export function confirmEmail(token: string): Promise<UserDoc> {
  return api.put('_users/_confirmation', { token });
}
