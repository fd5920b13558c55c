import { invalidParameter } from './errors.js';

/**
 * A list's cursor: the id of the last row of the page before, as the list gave it. Anything
 * else is the caller's mistake, answered as one.
 */
export function parseIdCursor(cursor: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(cursor) || !Number.isSafeInteger(Number(cursor))) {
    throw invalidParameter('the cursor is not one this list gave: start again without it');
  }
  return Number(cursor);
}
