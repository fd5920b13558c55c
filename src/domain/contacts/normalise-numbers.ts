import { DomainError, invalidParameter } from '../errors.js';
import { normalizeMsisdn } from '../recipients/msisdn.js';

/**
 * Numbers a person typed, in `66XXXXXXXXX` form, each once. All or nothing: one malformed
 * number refuses the whole list, so a typo never leaves a number silently out.
 */
export function normaliseNumbers(numbers: readonly string[]): string[] {
  if (numbers.length === 0) throw invalidParameter('give at least one number');
  const normalised = numbers.map((text) => normalizeMsisdn(text.trim()));
  const invalid = numbers.filter((_text, i) => normalised[i] === null);
  if (invalid.length > 0) {
    throw new DomainError(
      'INVALID_NUMBER',
      `not valid numbers: ${invalid.slice(0, 20).join(', ')}${invalid.length > 20 ? ', …' : ''}; write them as 66XXXXXXXXX or 0XXXXXXXXX (nothing was changed)`,
    );
  }
  return [...new Set(normalised as string[])];
}
