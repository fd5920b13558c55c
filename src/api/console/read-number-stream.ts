import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import { DomainError } from '../../domain/errors.js';
import { msisdnBytesToSuffix } from '../../domain/recipients/msisdn.js';
import { headerNumberColumn } from '../../domain/recipients/number-column.js';
import { NumberCollector } from '../../domain/recipients/number-collector.js';
import type { NumberList } from '../../domain/recipients/number-list.js';

/** How an uploaded number file is read: one number a line, or CSV. */
export type NumberFileFormat = 'lines' | 'csv';

export interface NumberStreamLimits {
  /** Numbers in the file, counted before deduplication (the send path's own limit). */
  readonly maxNumbers: number;
  /** Bytes of the whole body. */
  readonly maxBytes: number;
}

/** A line longer than this is not a number: it is kept (cut) as one invalid entry. */
const MAX_LINE_BYTES = 64;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Reads an uploaded number file from its stream into the send path's `NumberCollector`, chunk
 * by chunk: the body is never held whole. Plain lines take a byte scanner that allocates nothing
 * for a valid number; CSV goes through csv-parse (quotes, `,` `;` or tab, a header row naming
 * the number column). Blank lines are skipped, and so is a first line without a digit (a
 * header). Numbers follow the send path's rules; anything else is counted invalid.
 */
export async function readNumberStream(
  stream: Readable,
  format: NumberFileFormat,
  limits: NumberStreamLimits,
  expectedNumbers: number,
): Promise<NumberList> {
  const collector = new NumberCollector(
    Math.max(1024, Math.min(expectedNumbers, limits.maxNumbers)),
  );
  // Past the limit the rest is read and dropped, so the client hears the answer rather than a
  // reset connection; the byte limit still bounds the read.
  const add = (value: number | string): void => {
    if (collector.requested >= limits.maxNumbers) {
      overflow = true;
      return;
    }
    if (typeof value === 'number') collector.addValid(value);
    else collector.addText(value);
  };
  let overflow = false;
  const counted = countBytes(stream, limits.maxBytes);
  if (format === 'csv') await readCsv(counted, add);
  else await readLines(counted, add);
  if (overflow) throw tooMany(limits.maxNumbers);
  return collector.finish();
}

async function* countBytes(stream: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of interrupted(stream)) {
    total += chunk.length;
    if (total > maxBytes) {
      stream.destroy();
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The file is larger than ${maxBytes} bytes, the limit for an upload`,
      );
    }
    yield chunk;
  }
}

/** The stream's chunks; a client that goes away mid-upload is its mistake, not a 500. */
async function* interrupted(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      code === 'ECONNRESET' ||
      code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      (error as Error).message === 'aborted'
    ) {
      throw new DomainError(
        'INVALID_PARAMETER',
        'The upload was interrupted before its end; send the file again',
      );
    }
    throw error;
  }
}

function tooMany(maxNumbers: number): DomainError {
  return new DomainError(
    'TOO_MANY_NUMBERS',
    `The file lists more than ${maxNumbers.toLocaleString('en-US')} numbers, the limit of one send`,
  );
}

type Add = (value: number | string) => void;

async function readLines(chunks: AsyncIterable<Buffer>, add: Add): Promise<void> {
  // The bytes of a line cut by a chunk's end, carried to the next chunk (at most MAX_LINE_BYTES).
  const carry = Buffer.alloc(MAX_LINE_BYTES);
  let carried = 0;
  let overlong = false;
  let first = true;

  const take = (buf: Buffer, start: number, end: number): void => {
    let s = start;
    let e = end;
    if (
      first &&
      e - s >= 3 &&
      buf[s] === UTF8_BOM[0] &&
      buf[s + 1] === UTF8_BOM[1] &&
      buf[s + 2] === UTF8_BOM[2]
    )
      s += 3;
    while (s < e && isBlank(buf[s]!)) s++;
    while (e > s && isBlank(buf[e - 1]!)) e--;
    if (s === e) return;
    if (first) {
      first = false;
      if (!hasDigit(buf, s, e)) return;
    }
    const suffix = msisdnBytesToSuffix(buf, s, e);
    add(suffix >= 0 ? suffix : buf.toString('utf8', s, e));
  };

  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (carried > 0 || overlong) {
        // The rest of a line begun in an earlier chunk.
        const room = MAX_LINE_BYTES - carried;
        const copied = Math.min(room, end - start);
        chunk.copy(carry, carried, start, start + copied);
        carried += copied;
        if (end - start > room) overlong = true;
        if (newline === -1) break;
        take(carry, 0, carried);
        carried = 0;
        overlong = false;
      } else if (newline === -1) {
        const rest = chunk.length - start;
        chunk.copy(carry, 0, start, start + Math.min(rest, MAX_LINE_BYTES));
        carried = Math.min(rest, MAX_LINE_BYTES);
        overlong = rest > MAX_LINE_BYTES;
        break;
      } else {
        take(chunk, start, Math.min(end, start + MAX_LINE_BYTES));
      }
      start = newline + 1;
    }
  }
  if (carried > 0) take(carry, 0, carried);
}

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB || byte === CARRIAGE_RETURN;
}

function hasDigit(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i]! >= 0x30 && buf[i]! <= 0x39) return true;
  return false;
}

async function readCsv(chunks: AsyncIterable<Buffer>, add: Add): Promise<void> {
  const parser = parse({
    bom: true,
    delimiter: [',', ';', '\t'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: 64 * 1024,
  });
  const feeding = (async () => {
    try {
      for await (const chunk of chunks) {
        if (parser.destroyed) return;
        if (!parser.write(chunk)) {
          await new Promise((resolve) => {
            parser.once('drain', resolve);
            parser.once('close', resolve);
          });
        }
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let column = 0;
  let first = true;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (first) {
        first = false;
        const header = headerNumberColumn(record);
        if (header !== null) {
          column = header;
          continue;
        }
      }
      const value = record[column] ?? '';
      if (value.length === 0) continue;
      add(value);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('CSV_')) {
      throw new DomainError(
        'INVALID_PARAMETER',
        `The CSV file could not be read: ${(error as Error).message}`,
      );
    }
    throw error;
  } finally {
    await feeding;
  }
}
