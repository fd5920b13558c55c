import { LIMITS } from '../limits.js';
import type { InvalidLine, NumberRow } from './parse-number-lines.js';

/** How many rejected lines an import's report quotes; `rejected` counts them all. */
export const REPORT_LINE_LIMIT = 100;
/** The most distinct numbers one import may hold: the most one send may address. */
export const MAX_IMPORT_NUMBERS = LIMITS.numbersPerRequest;

/** Rows of an uploaded list, read as they arrive (see the console's CSV reader). */
export type NumberRows = AsyncIterable<NumberRow> | Iterable<NumberRow>;

/** What an import of a number list did. */
export interface NumberImportReport {
  /** Numbers that are new to the group or list. */
  readonly added: number;
  /** Valid numbers that were already there. */
  readonly alreadyPresent: number;
  /** Repeats of a number earlier in the same file. */
  readonly duplicates: number;
  /** Lines that are not a number, all of them. */
  readonly rejected: number;
  /** The first {@link REPORT_LINE_LIMIT} of them, with their line numbers and why. */
  readonly rejectedLines: InvalidLine[];
}
