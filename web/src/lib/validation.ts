// Client checks shared by several screens (SPEC §5).

import { clientValidationError, type ApiError } from './errors';

/** validatePasswordPair: password and confirmation must match, else nothing is sent. */
export function validatePasswordPair(input: { password: string; password_confirmation: string }): ApiError | null {
  if (input.password !== input.password_confirmation) {
    return clientValidationError({ password_confirmation: ['doesnt-match'] });
  }
  return null;
}
