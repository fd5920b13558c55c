import { invalidParameter } from '../errors.js';
import { countCharacters, LIMITS } from '../limits.js';

/**
 * Letters, digits and printable ASCII symbols; a single inner space is allowed ("MY SHOP").
 * Written as a JSON Schema `pattern` too: keep it to the syntax both engines read alike.
 */
export const SENDER_NAME_PATTERN = '^[\\x21-\\x7e](?:[\\x21-\\x7e]| (?! ))*$';
const SENDER_NAME_SHAPE = new RegExp(SENDER_NAME_PATTERN);

/** A sender name by the rules of send and of the console: 1–11 letters, digits and symbols. */
export function checkSenderName(name: string): string {
  const characters = countCharacters(name);
  if (characters === 0 || characters > LIMITS.senderNameChars) {
    throw invalidParameter(
      `a sender name has 1 to ${LIMITS.senderNameChars} characters; "${name}" has ${characters}`,
    );
  }
  if (!SENDER_NAME_SHAPE.test(name)) {
    throw invalidParameter(
      `sender name "${name}" may hold letters, digits and symbols only (one space between words)`,
    );
  }
  return name;
}
