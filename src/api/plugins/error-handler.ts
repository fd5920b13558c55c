import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../../domain/errors.js';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '../../domain/store-unavailable.js';
import { validationCode } from '../contract/fields.js';
import { BodyScanError } from '../send-body/scan-send-body.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** The one table from error code to HTTP status. */
export function statusFor(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
    case 'INVALID_PARAMETER':
    case 'INVALID_NUMBER':
    case 'TOO_MANY_NUMBERS':
    case 'CONTENT_TOO_LONG':
    case 'SENDER_NOT_FOUND':
    case 'SENDER_NOT_APPROVED':
    case 'TEMPLATE_NOT_FOUND':
    case 'TEMPLATE_VARIABLE_MISSING':
    case 'CONTACT_GROUP_NOT_FOUND':
    case 'INVALID_SCHEDULED_TIME':
    case 'NOT_SCHEDULED':
    case 'TOTP_CODE_INVALID':
      return 400;
    case 'UNAUTHORIZED':
    case 'TOTP_REQUIRED':
      return 401;
    case 'INSUFFICIENT_CREDITS':
      return 402;
    case 'SCOPE_INSUFFICIENT':
    case 'FORBIDDEN':
    case 'ACCOUNT_SUSPENDED':
    case 'CSRF_FAILED':
    case 'TOTP_ENROLMENT_REQUIRED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'ALREADY_CANCELLED':
    case 'ALREADY_PROCESSING':
    case 'SENDER_NAME_TAKEN':
    case 'INVALID_TRANSITION':
    case 'EMAIL_TAKEN':
    case 'ALREADY_INVITED':
    case 'NOT_REMOVABLE':
      return 409;
    case 'LINK_USED':
    case 'LINK_EXPIRED':
      return 410;
    case 'PAYLOAD_TOO_LARGE':
    case 'DOCUMENT_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'DOCUMENT_TYPE_NOT_ALLOWED':
    case 'DOCUMENT_TYPE_MISMATCH':
      return 415;
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'STORE_UNAVAILABLE':
      return 503;
  }
}

// Fastify's own errors for a client's mistake, as our codes.
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_PARAMETER',
};

/**
 * Errors fastify raises before routing (a malformed %-escape, an over-long path parameter),
 * in the same `{ error, code }` shape; pass it as fastify's `frameworkErrors` option.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // Sent before routing, so no onSend hook runs: the id's header is set here.
  reply.header(REQUEST_ID_HEADER, request.id);
  // Path parameters are ids of a fixed format (path-ids.ts): one too long to route names nothing.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply
      .status(statusFor('NOT_FOUND'))
      .send({ error: 'Nothing has so long an id', code: 'NOT_FOUND', requestId: request.id });
    return;
  }
  reply.status(statusFor('INVALID_PARAMETER')).send({
    error: 'The URL is not valid: check its %-escapes',
    code: 'INVALID_PARAMETER',
    requestId: request.id,
  });
}

/**
 * Every error leaves as `{ error, code, requestId }`; a 500 says nothing internal, and the log
 * lines with its `requestId` have the cause (request-id.ts).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError | BodyScanError, request, reply) => {
    const known = classify(error);
    if (known) {
      reply
        .status(statusFor(known.code))
        .send({ error: known.message, code: known.code, requestId: request.id });
      return;
    }
    if (sentStoreUnavailable(error, request, reply)) return;
    request.log.error({ err: error }, 'unhandled error');
    reply.status(500).send({
      error: 'Internal error; the request may be retried',
      code: 'INTERNAL',
      requestId: request.id,
    });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      error: `No route ${request.method} ${request.url.split('?')[0]}`,
      code: 'NOT_FOUND',
      requestId: request.id,
    });
  });
}

/**
 * The store is down, unreachable or refusing writes (domain/store-unavailable.ts): 503
 * STORE_UNAVAILABLE with Retry-After, for every route of either listener. The request's
 * transaction rolled back, unless the connection broke after its COMMIT was sent: the client
 * may send it again, and a send with its Idempotency-Key is then kept once. Answers whether it
 * replied.
 */
export function sentStoreUnavailable(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  if (!isStoreUnavailable(error)) return false;
  request.log.warn({ err: error }, 'the store is unavailable');
  reply
    .status(statusFor('STORE_UNAVAILABLE'))
    .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
    .send({
      error:
        'The store is unavailable for now; try again shortly (a send with an Idempotency-Key is kept once)',
      code: 'STORE_UNAVAILABLE',
      requestId: request.id,
    });
  return true;
}

function classify(
  error: FastifyError | DomainError | BodyScanError,
): { code: ErrorCode; message: string } | null {
  if (error instanceof DomainError || error instanceof BodyScanError)
    return { code: error.code, message: error.message };
  if ('validation' in error && error.validation) {
    return { code: validationCode(error.validation[0]), message: error.message };
  }
  const mapped = 'code' in error && error.code ? FRAMEWORK_CODES[error.code] : undefined;
  if (mapped) return { code: mapped, message: error.message };
  if (
    'statusCode' in error &&
    error.statusCode &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    return { code: 'INVALID_PARAMETER', message: error.message };
  }
  return null;
}
