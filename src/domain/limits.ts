/**
 * The limits of the interface specification (§2.5, §2.6, §8), each written once. The route
 * schemas (and so the OpenAPI document at /openapi.json) and the domain rules import them from
 * here, so the published contract and the server cannot disagree on a number.
 *
 * Every "characters" limit counts Unicode code points (`countCharacters`), as JSON Schema's
 * `maxLength` does: an emoji is one character, not two UTF-16 units.
 */
export const LIMITS = {
  /** Sender name: 1 to 11 characters (letters, digits, symbols). */
  senderNameChars: 11,
  /** Message text on send. */
  sendContentChars: 1_000,
  /** Message text on preview-cost. */
  previewContentChars: 2_000,
  /** Numbers in one send or preview-cost request. */
  numbersPerRequest: 2_000_000,
  /** GET /api/v2/sms page size. */
  messagePageSize: { default: 20, max: 100 },
  /**
   * GET /api/v2/sms page number: bounded so that (page - 1) × page size stays an offset both
   * engines accept.
   */
  maxMessagePage: 10_000_000,
  /** GET /api/v2/sms search filter. */
  messageSearchChars: 1_000,
  /** GET /api/v2/sms/{uuid}/recipients page size. */
  recipientPageSize: { default: 50, max: 50 },
  /** GET /api/v2/sms/{uuid}/recipients search filter (a substring of a number). */
  recipientSearchChars: 32,
  /** The Idempotency-Key header: 1 to 255 printable ASCII characters. */
  idempotencyKeyChars: 255,
  /**
   * The largest number of credits the console takes at once: a grant or deduction, an opening
   * balance, a low-balance threshold.
   */
  creditAmount: 1_000_000_000_000,
} as const;

/**
 * Characters as the spec's limits count them: Unicode code points. A lone surrogate counts as
 * one. (Message parts are a different measure, counted in UTF-16 units: see message-parts.ts.)
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
