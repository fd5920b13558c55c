/**
 * Thai mobile numbers as the API accepts them: `66` + 9 digits, or `0` + 9 digits, nothing else
 * (no `+`, spaces or dashes). Both forms name the same number, so the 9 national digits (the
 * "suffix", 0..999_999_999) are the identity used for dedupe and compact storage.
 */

/** The same rule as a regular expression, for the published contract (a JSON Schema `pattern`). */
export const MSISDN_PATTERN = '^(?:66[0-9]{9}|0[0-9]{9})$';

const DIGIT_0 = 0x30;
const DIGIT_6 = 0x36;
const NATIONAL_DIGITS = 9;
const MAX_SUFFIX = 999_999_999;

/** The `66XXXXXXXXX` form of a valid number, or null. */
export function normalizeMsisdn(text: string): string | null {
  const suffix = msisdnToSuffix(text);
  return suffix === null ? null : suffixToMsisdn(suffix);
}

/** The 9 national digits of a valid number as an integer, or null. */
export function msisdnToSuffix(text: string): number | null {
  let start: number;
  if (text.length === 11 && text.charCodeAt(0) === DIGIT_6 && text.charCodeAt(1) === DIGIT_6) {
    start = 2;
  } else if (text.length === 10 && text.charCodeAt(0) === DIGIT_0) {
    start = 1;
  } else {
    return null;
  }
  let suffix = 0;
  for (let i = start; i < text.length; i++) {
    const digit = text.charCodeAt(i) - DIGIT_0;
    if (digit < 0 || digit > 9) return null;
    suffix = suffix * 10 + digit;
  }
  return suffix;
}

export function suffixToMsisdn(suffix: number): string {
  if (!Number.isInteger(suffix) || suffix < 0 || suffix > MAX_SUFFIX) {
    throw new RangeError(`not a 9-digit number suffix: ${suffix}`);
  }
  return '66' + String(suffix).padStart(NATIONAL_DIGITS, '0');
}

/**
 * {@link msisdnToSuffix} over raw bytes [start, end), so the body scanner never allocates a
 * string for a valid number. Returns -1 rather than null to stay a small-integer return.
 */
export function msisdnBytesToSuffix(buf: Uint8Array, start: number, end: number): number {
  const length = end - start;
  let i: number;
  if (length === 11 && buf[start] === DIGIT_6 && buf[start + 1] === DIGIT_6) {
    i = start + 2;
  } else if (length === 10 && buf[start] === DIGIT_0) {
    i = start + 1;
  } else {
    return -1;
  }
  let suffix = 0;
  for (; i < end; i++) {
    // A byte past the buffer reads as undefined → NaN → rejected, like any non-digit.
    const digit = (buf[i] as number) - DIGIT_0;
    if (!(digit >= 0 && digit <= 9)) return -1;
    suffix = suffix * 10 + digit;
  }
  return suffix;
}
