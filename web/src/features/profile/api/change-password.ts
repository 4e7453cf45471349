import { api, enc } from '../../../lib/api';

export interface PasswordInput {
  userId: string;
  rev: string;
  password: string;
  password_confirmation: string;
  current_password: string;
}

/** PUT /_users/{id}?rev= {password, password_confirmation, current_password}; other sessions end. */
export function changePassword(input: PasswordInput): Promise<{ ok: boolean; id: string; rev: string }> {
  return api.put(
    `_users/${enc(input.userId)}`,
    {
      password: input.password,
      password_confirmation: input.password_confirmation,
      current_password: input.current_password,
      return_url: `${window.location.origin}/user/profile`,
    },
    { rev: input.rev },
  );
}
