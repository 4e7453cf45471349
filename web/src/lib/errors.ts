// The API's error envelope {error, reason, fields} as a typed error, and the
// keys SPEC §8 displays it by: the title by error name, the message by reason.

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  /** The server's error name (not_found, conflict…) or a client code. */
  readonly error: string;
  readonly reason: string;
  readonly fields: FieldErrors;

  constructor(status: number, error: string, reason: string, fields: FieldErrors = {}) {
    super(reason || error);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.reason = reason;
    this.fields = fields;
  }

  hasFieldErrors(): boolean {
    return Object.keys(this.fields).length > 0;
  }
}

/** The network failed: no response at all. */
export function connectionError(): ApiError {
  return new ApiError(0, 'connection_error', 'Network error');
}

/**
 * A client-side validation failure (SPEC §5): shown like the server's 422,
 * with the codes under the fields.
 */
export function clientValidationError(fields: FieldErrors): ApiError {
  return new ApiError(422, 'unprocessable_entity', '', fields);
}

/**
 * reasonKey turns a reason into its message key: lowercased, punctuation
 * removed, spaces turned to hyphens ("Email or password is incorrect" →
 * "email-or-password-is-incorrect", "can't be blank" → "cant-be-blank").
 */
export function reasonKey(reason: string): string {
  return reason
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

const KNOWN_TITLES = new Set([
  'unknown_error',
  'internal_server_error',
  'connection_error',
  'conflict',
  'forbidden',
  'unauthorized',
  'not_found',
  'too_many_requests',
  'unprocessable_entity',
  'bad_request',
]);

/** titleKey is the i18n key of the error's title; unknown names read "Error". */
export function titleKey(error: string): string {
  return KNOWN_TITLES.has(error) ? `errors.titles.${error}` : 'errors.titles.error';
}

/** messageKey is the i18n key of a reason (fallback is the raw reason). */
export function messageKey(reason: string): string {
  return `errors.messages.${reasonKey(reason)}`;
}

/** asApiError wraps anything thrown into an ApiError for display. */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Error) return new ApiError(0, 'error', err.message);
  return new ApiError(0, 'error', 'Undefined error');
}
