import type { ErrorCode } from '../errors.js';
import { countCharacters } from '../limits.js';

/**
 * What is wrong with `text` as the text of a message of at most `maxChars` characters, or null:
 * not empty or only spaces, no NUL (U+0000 cannot be sent as SMS text, and PostgreSQL text
 * cannot store it), and not too long. The request schemas check a given text with it, the use
 * case a rendered template. Imports nothing a browser cannot bundle.
 */
export function contentProblem(
  text: string,
  maxChars: number,
): { readonly code: ErrorCode; readonly message: string } | null {
  if (text.trim().length === 0)
    return { code: 'INVALID_PARAMETER', message: 'content must not be empty' };
  if (text.includes('\u0000')) {
    return {
      code: 'INVALID_PARAMETER',
      message: 'content must not contain the NUL character (\\u0000)',
    };
  }
  const characters = countCharacters(text);
  if (characters > maxChars) {
    return {
      code: 'CONTENT_TOO_LONG',
      message: `content has ${characters} characters; the limit is ${maxChars}`,
    };
  }
  return null;
}
