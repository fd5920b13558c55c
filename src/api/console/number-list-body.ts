import { pipeline, Readable, Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NumberRow } from '../../domain/contacts/parse-number-lines.js';
import { DomainError, invalidParameter } from '../../domain/errors.js';
import { NUMBER_LIST_MAX_BYTES, NUMBER_LIST_TYPES } from './contract/number-imports.js';

/**
 * Lets the routes of one plugin take a number list as their raw body (CSV or one number a line):
 * the body stays a stream for `numberRowsOf` to read as it arrives. Fastify's own text/plain
 * parser, which would buffer the whole body, is replaced in this plugin only.
 */
export function acceptNumberLists(app: FastifyInstance): void {
  for (const type of NUMBER_LIST_TYPES) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  }
  app.addContentTypeParser([...NUMBER_LIST_TYPES], (_request, payload, done) => {
    done(null, payload);
  });
}

/**
 * The rows of an uploaded number list, parsed by csv-parse a chunk at a time as the body
 * arrives: each row's cells with its line number (which column holds the numbers is the
 * parser's rule, `parseNumberRows`). Commas, semicolons or tabs separate cells; quotes are
 * CSV's. More than NUMBER_LIST_MAX_BYTES stops the read (413); a line CSV cannot read is a 400
 * naming it. Either way nothing has been written yet.
 */
export function numberRowsOf(request: FastifyRequest): AsyncIterable<NumberRow> {
  const body = request.body;
  if (!(body instanceof Readable)) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send the list as the request body with Content-Type ${NUMBER_LIST_TYPES.join(' or ')}`,
    );
  }
  return rowsOf(body);
}

const SLICE_BYTES = 64 * 1024;

async function* rowsOf(body: Readable): AsyncIterable<NumberRow> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      bytes += chunk.length;
      if (bytes > NUMBER_LIST_MAX_BYTES) {
        next(
          new DomainError(
            'PAYLOAD_TOO_LARGE',
            `the list is larger than ${NUMBER_LIST_MAX_BYTES / 1024 / 1024} MB; split it (nothing was imported)`,
          ),
        );
      } else {
        // csv-parse slows down badly on one huge chunk (an in-process request hands the whole
        // body at once: 45 s for 12 MB); slices of 64 KiB keep it at ~1 s per million rows.
        for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
          this.push(chunk.subarray(at, at + SLICE_BYTES));
        }
        next();
      }
    },
  });
  const parser = parse({
    bom: true,
    delimiter: [',', ';', '\t'],
    relax_column_count: true,
    relax_quotes: true,
    // Line numbers are counted from each record's raw text: csv-parse's own `info` costs a
    // copied object per record, which made a million-row list take 6 s instead of 1.
    raw: true,
  });
  const records = pipeline(body, limit, parser, () => {
    // Errors reach the loop below through the parser; nothing else to do when it ends.
  });
  let line = 1;
  try {
    for await (const { record, raw } of records as AsyncIterable<{
      record: string[];
      raw: string;
    }>) {
      yield { line, cells: record };
      // The raw text holds the record's line breaks, quoted ones too; after a CRLF record it
      // ends at the \r (csv-parse 7 leaves the \n out), which counts as that record's break.
      for (let at = raw.indexOf('\n'); at !== -1; at = raw.indexOf('\n', at + 1)) line++;
      if (raw.endsWith('\r')) line++;
    }
  } catch (error) {
    if (error instanceof CsvError) {
      throw invalidParameter(
        `the list could not be read as CSV: ${error.message} (nothing was imported)`,
      );
    }
    throw error;
  }
}
