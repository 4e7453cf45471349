import { api } from '../../../lib/api';

export interface ResetPasswordInput {
  token: string;
  password: string;
  password_confirmation: string;
}

/** PUT /_users/_password {token, password, password_confirmation}; does not sign in. */
export function resetPassword(input: ResetPasswordInput): Promise<{ ok: boolean; id: string; rev: string }> {
  return api.put('_users/_password', input);
}
