import { request } from '../../../lib/api';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
}

export interface LoginResponse {
  ok: boolean;
  name: string;
  roles: string[];
}

/** POST /_session (SPEC §7); a wrong password is a 401 that must not raise "logged-out". */
export function login(input: LoginInput): Promise<LoginResponse> {
  return request<LoginResponse>('_session', {
    method: 'POST',
    body: { name: input.email.trim(), password: input.password, remember: input.remember },
    noSessionCheck: true,
  });
}
