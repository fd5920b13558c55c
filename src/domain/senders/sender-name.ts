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
  const problem = senderNameProblem(name);
  if (problem) throw invalidParameter(problem);
  return name;
}

/**
 * What is wrong with `name` as a sender name, or null when it is a good one. The console's
 * contract (which the browser bundles) checks forms with it: this module imports nothing that
 * a browser cannot bundle.
 */
export function senderNameProblem(name: string): string | null {
  const characters = countCharacters(name);
  if (characters === 0 || characters > LIMITS.senderNameChars) {
    return `a sender name has 1 to ${LIMITS.senderNameChars} characters; "${name}" has ${characters}`;
  }
  if (!SENDER_NAME_SHAPE.test(name)) {
    return `sender name "${name}" may hold letters, digits and symbols only (one space between words)`;
  }
  return null;
}
