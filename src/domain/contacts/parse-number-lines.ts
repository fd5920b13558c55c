import { msisdnToSuffix, suffixToMsisdn } from '../recipients/msisdn.js';
import { NumberSet } from '../recipients/number-set.js';

/** How many invalid lines a report quotes; the count covers them all. */
export const INVALID_SAMPLE_LIMIT = 5;
const SAMPLE_CHARS = 40;

export interface InvalidLine {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: string;
}

export interface ParsedNumbers {
  /** Valid numbers in `66XXXXXXXXX` form, each once, in file order. */
  readonly numbers: string[];
  readonly duplicates: number;
  readonly invalid: number;
  readonly invalidSamples: InvalidLine[];
}

/**
 * Reads a number list: one number per line, or CSV with the number in the first column. Blank
 * lines are ignored; the first non-blank line is a header (and skipped) when it has no digit.
 * Numbers follow the send path's rules (`66XXXXXXXXX` or `0XXXXXXXXX`); anything else is counted
 * as invalid and left out.
 */
export async function parseNumberLines(
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<ParsedNumbers> {
  const seen = new NumberSet();
  let duplicates = 0;
  let invalid = 0;
  const invalidSamples: InvalidLine[] = [];
  let lineNumber = 0;
  let sawContent = false;

  for await (const line of lines) {
    lineNumber++;
    const value = firstColumn(lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line);
    if (value.length === 0) continue;
    const isFirst = !sawContent;
    sawContent = true;
    if (isFirst && !/\d/.test(line)) continue;
    const suffix = msisdnToSuffix(value);
    if (suffix === null) {
      invalid++;
      if (invalidSamples.length < INVALID_SAMPLE_LIMIT) {
        invalidSamples.push({ line: lineNumber, value: value.slice(0, SAMPLE_CHARS) });
      }
    } else if (!seen.add(suffix)) {
      duplicates++;
    }
  }

  const numbers = Array.from(seen.toArray(), suffixToMsisdn);
  return { numbers, duplicates, invalid, invalidSamples };
}

function firstColumn(line: string): string {
  const end = line.search(/[,;\t]/);
  const cell = (end === -1 ? line : line.slice(0, end)).trim();
  return cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')
    ? cell.slice(1, -1).trim()
    : cell;
}
