// The client checks of SPEC §5. On failure nothing is sent and the codes show
// under the fields as an unprocessable_entity error.

import { ApiError, clientValidationError, type FieldErrors } from '../../lib/errors';

export const FILL_EMAIL_PASSWORD = 'Please fill in e-mail and password';

export function validateLogin(input: { email: string; password: string }): ApiError | null {
  if (!input.email.trim() || !input.password) return new ApiError(400, 'bad_request', FILL_EMAIL_PASSWORD);
  return null;
}

export function validateRegistration(input: {
  email: string;
  password: string;
  password_confirmation: string;
  accept_terms: boolean;
}): ApiError | null {
  const fields: FieldErrors = {};
  if (!input.email.trim()) fields.email = ['cant-be-blank'];
  // Both empty is accepted (SPEC §5); the server has the last word on the password.
  if (input.password !== input.password_confirmation) fields.password_confirmation = ['doesnt-match'];
  if (!input.accept_terms) fields.accept_terms = ['must-be-accepted'];
  return Object.keys(fields).length ? clientValidationError(fields) : null;
}
