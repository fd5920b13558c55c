/** Every machine-readable error code Nok answers with. The API maps each to one HTTP status. */
export const ERROR_CODES = [
  'INVALID_JSON',
  'INVALID_PARAMETER',
  'INVALID_NUMBER',
  'TOO_MANY_NUMBERS',
  'CONTENT_TOO_LONG',
  'SENDER_NOT_FOUND',
  'SENDER_NOT_APPROVED',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_VARIABLE_MISSING',
  'CONTACT_GROUP_NOT_FOUND',
  'INVALID_SCHEDULED_TIME',
  'UNAUTHORIZED',
  'SCOPE_INSUFFICIENT',
  'FORBIDDEN',
  'ACCOUNT_SUSPENDED',
  'CSRF_FAILED',
  'TOTP_REQUIRED',
  'TOTP_ENROLMENT_REQUIRED',
  'TOTP_CODE_INVALID',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'INSUFFICIENT_CREDITS',
  'NOT_SCHEDULED',
  'ALREADY_CANCELLED',
  'ALREADY_PROCESSING',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SENDER_NAME_TAKEN',
  'INVALID_TRANSITION',
  'EMAIL_TAKEN',
  'ALREADY_INVITED',
  'NOT_REMOVABLE',
  'LINK_USED',
  'LINK_EXPIRED',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_TYPE_NOT_ALLOWED',
  'DOCUMENT_TYPE_MISMATCH',
  'STORE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An expected failure: a rule of the domain said no. Never carries transport details. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export function invalidParameter(message: string): DomainError {
  return new DomainError('INVALID_PARAMETER', message);
}
