import { api, enc } from '../../../lib/api';

export interface ProfileInput {
  userId: string;
  rev: string;
  fullname: string;
  unconfirmed_email: string;
  current_password: string;
}

/** PUT /_users/{id}?rev= {fullname, unconfirmed_email, current_password, return_url} (SPEC §7). */
export function updateProfile(input: ProfileInput): Promise<{ ok: boolean; id: string; rev: string }> {
  return api.put(
    `_users/${enc(input.userId)}`,
    {
      fullname: input.fullname.trim(),
      unconfirmed_email: input.unconfirmed_email.trim(),
      current_password: input.current_password,
      return_url: `${window.location.origin}/user/profile`,
    },
    { rev: input.rev },
  );
}
