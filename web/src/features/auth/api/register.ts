import { api } from '../../../lib/api';
import { newId } from '../../../lib/ids';

export interface RegisterInput {
  email: string;
  fullname: string;
  password: string;
  password_confirmation: string;
  locale: string;
}

/** POST /_users with a client-generated usr- id (SPEC §7). */
export function register(input: RegisterInput): Promise<{ ok: boolean; id: string; rev: string }> {
  return api.post('_users', {
    _id: newId('usr'),
    fullname: input.fullname.trim(),
    unconfirmed_email: input.email.trim(),
    password: input.password,
    password_confirmation: input.password_confirmation,
    locale: input.locale,
  });
}
