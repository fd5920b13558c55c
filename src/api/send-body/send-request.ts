import type { PreviewRequest, SendRequest } from '../../domain/messages/send-request.js';
import { LIMITS } from '../../domain/limits.js';
import { parseOrRefuse } from '../contract/fields.js';
import { previewRequestSchema, sendRequestSchema } from '../contract/sms.js';
import { scanSendBody } from './scan-send-body.js';

/*
 * The raw bodies of send and preview-cost, read into the use cases' commands: the byte scanner
 * reads the numbers (never `JSON.parse`d: two million of them are 30 MB), the request's schema
 * the rest, with the numbers as the scanner counted them. So the command is the one the schema
 * describes, whichever reader read it.
 */

/**
 * Scans a send body at once (malformed JSON or too many numbers are refused here), and gives
 * the command to parse when the use case judges it: after an Idempotency-Key used before.
 */
export function readSendRequest(body: Buffer): () => SendRequest {
  const members = scanned(body);
  return () => parseOrRefuse(sendRequestSchema, members);
}

export function readPreviewRequest(body: Buffer): PreviewRequest {
  return parseOrRefuse(previewRequestSchema, scanned(body));
}

function scanned(body: Buffer): Record<string, unknown> {
  const { fields, msisdns } = scanSendBody(body, { maxNumbers: LIMITS.numbersPerRequest });
  return msisdns === undefined ? fields : { ...fields, msisdns };
}
