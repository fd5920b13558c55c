import { invalidParameter } from '../errors.js';
import { MAX_SENDER_CHARS, SENDER_SHAPE } from '../messages/prepare-send.js';

/** A sender name by the same rules the send path checks: 1–11 letters, digits and symbols. */
export function checkSenderName(name: string): string {
  if (name.length === 0 || name.length > MAX_SENDER_CHARS) {
    throw invalidParameter(
      `a sender name has 1 to ${MAX_SENDER_CHARS} characters; "${name}" has ${name.length}`,
    );
  }
  if (!SENDER_SHAPE.test(name)) {
    throw invalidParameter(
      `sender name "${name}" may hold letters, digits and symbols only (one space between words)`,
    );
  }
  return name;
}
