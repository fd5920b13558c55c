import { DomainError } from '../errors.js';
import { msisdnToSuffix, suffixToMsisdn } from '../recipients/msisdn.js';
import { headerNumberColumn } from '../recipients/number-column.js';
import { NumberSet } from '../recipients/number-set.js';

/** How many invalid lines a report quotes by default; the count covers them all. */
export const INVALID_SAMPLE_LIMIT = 5;
const SAMPLE_CHARS = 40;

/** Why a line was not taken as a number. */
export type RejectReason = 'not-digits' | 'wrong-length' | 'wrong-prefix';

export interface InvalidLine {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: string;
  readonly reason: RejectReason;
}

/** One row of a number list: the line it starts on, and its cells. */
export interface NumberRow {
  readonly line: number;
  readonly cells: readonly string[];
}

export interface ParsedNumbers {
  /** Valid numbers in `66XXXXXXXXX` form, each once, in file order. */
  readonly numbers: string[];
  readonly duplicates: number;
  readonly invalid: number;
  readonly invalidSamples: InvalidLine[];
}

export interface ParseOptions {
  /** How many invalid lines to quote (default {@link INVALID_SAMPLE_LIMIT}). */
  readonly sampleLimit?: number;
  /** More distinct numbers than this refuse the whole list (TOO_MANY_NUMBERS). */
  readonly maxNumbers?: number;
}

/**
 * Reads a number list: one number per line, or CSV with the number in the column a header names
 * (see {@link headerNumberColumn}), else the first. Blank lines are ignored; the first non-blank
 * line is a header (and skipped) when it has no digit. Numbers follow the send path's rules
 * (`66XXXXXXXXX` or `0XXXXXXXXX`); anything else is counted as invalid and left out.
 */
export async function parseNumberLines(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ParseOptions = {},
): Promise<ParsedNumbers> {
  return parseNumberRows(rowsOfLines(lines), options);
}

async function* rowsOfLines(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncIterable<NumberRow> {
  let line = 0;
  for await (const text of lines) {
    line++;
    const clean = line === 1 ? text.replace(/^\uFEFF/, '') : text;
    yield { line, cells: cellsOf(clean) };
  }
}

/**
 * The rule of {@link parseNumberLines} over rows already split into cells (a CSV reader's
 * output). Numbers are kept as 9-digit suffixes while reading, so a million of them take a few
 * megabytes.
 */
export async function parseNumberRows(
  rows: AsyncIterable<NumberRow> | Iterable<NumberRow>,
  options: ParseOptions = {},
): Promise<ParsedNumbers> {
  const sampleLimit = options.sampleLimit ?? INVALID_SAMPLE_LIMIT;
  const maxNumbers = options.maxNumbers ?? Number.POSITIVE_INFINITY;
  const seen = new NumberSet();
  let distinct = 0;
  let duplicates = 0;
  let invalid = 0;
  const invalidSamples: InvalidLine[] = [];
  let sawContent = false;
  let column = 0;

  for await (const row of rows) {
    if (!sawContent) {
      if (row.cells.every((cell) => cell.trim().length === 0)) continue;
      sawContent = true;
      const header = headerNumberColumn(row.cells);
      if (header !== null) {
        column = header;
        continue;
      }
    }
    const value = (row.cells[column] ?? '').trim();
    if (value.length === 0) continue;
    const suffix = msisdnToSuffix(value);
    if (suffix === null) {
      invalid++;
      if (invalidSamples.length < sampleLimit) {
        invalidSamples.push({
          line: row.line,
          value: value.slice(0, SAMPLE_CHARS),
          reason: rejectReason(value),
        });
      }
    } else if (!seen.add(suffix)) {
      duplicates++;
    } else if (++distinct > maxNumbers) {
      throw new DomainError(
        'TOO_MANY_NUMBERS',
        `the list has more than ${maxNumbers} distinct numbers; split it (nothing was imported)`,
      );
    }
  }

  const numbers = Array.from(seen.toArray(), suffixToMsisdn);
  return { numbers, duplicates, invalid, invalidSamples };
}

/** What is wrong with a value that is not a number of the send path's forms. */
export function rejectReason(value: string): RejectReason {
  if (!/^\d+$/.test(value)) return 'not-digits';
  if (value.startsWith('66') || value.startsWith('0')) return 'wrong-length';
  return 'wrong-prefix';
}

/** A line's cells, cut at `,` `;` or tab, each without the quotes around it. */
function cellsOf(line: string): string[] {
  return line.split(/[,;\t]/).map((text) => {
    const cell = text.trim();
    return cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')
      ? cell.slice(1, -1).trim()
      : cell;
  });
}
