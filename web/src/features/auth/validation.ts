// The client checks of SPEC §5. On failure nothing is sent and the codes show
// under the fields as an unprocessable_entity error.

import { ApiError, clientValidationError, type FieldErrors } from '../../lib/errors';

export const FILL_EMAIL_PASSWORD = 'Please fill in e-mail and password';

export function validateLogin(input: { email: string; password: string }): ApiError | null {
  if (!input.email.trim() || !input.password) return new ApiError(400, 'bad_request', FILL_EMAIL_PASSWORD);
  return null;
}

/** The server's shortest password (shared/auth MinPasswordLen). */
export const MIN_PASSWORD = 8;

/**
 * validateRegistration: SPEC §5's checks, and a blank sign-up flags every
 * empty field at once (issue 22 item 11): the e-mail, the password (SPEC §5
 * lets the API take none, but the screen signs in with it right after, so
 * an account made here without one could not), its confirmation and the
 * terms. The full name stays optional (SPEC §5) and says so.
 */
export function validateRegistration(input: {
  email: string;
  password: string;
  password_confirmation: string;
  accept_terms: boolean;
}): ApiError | null {
  const fields: FieldErrors = {};
  if (!input.email.trim()) fields.email = ['cant-be-blank'];
  if (!input.password) fields.password = ['cant-be-blank'];
  else if ([...input.password].length < MIN_PASSWORD) fields.password = ['is too short (minimum is 8 characters)'];
  if (!input.password_confirmation) fields.password_confirmation = ['cant-be-blank'];
  else if (input.password !== input.password_confirmation) fields.password_confirmation = ['doesnt-match'];
  if (!input.accept_terms) fields.accept_terms = ['must-be-accepted'];
  return Object.keys(fields).length ? clientValidationError(fields) : null;
}
