/**
 * Reads a send body straight from its bytes (DESIGN.md §3 "Staged accept").
 *
 * `JSON.parse` + a `Set` over 2,000,000 numbers takes ~3 s and hundreds of MB; this walks the
 * top-level object once, validates every byte against RFC 8259, and turns `msisdns` into packed
 * suffixes without allocating a string per valid number. Every other member is small, so it is
 * validated here and then handed to `JSON.parse`.
 *
 * Errors are reported at the first problem met, in body order: the scan stops there.
 * UTF-8 is not validated, as with `JSON.parse(buf.toString())`: bad sequences decode to U+FFFD.
 */
import { msisdnBytesToSuffix } from '../../domain/recipients/msisdn.js';
import { NumberCollector } from '../../domain/recipients/number-collector.js';
import type { NumberList } from '../../domain/recipients/number-list.js';

export type BodyScanErrorCode = 'INVALID_JSON' | 'INVALID_PARAMETER' | 'TOO_MANY_NUMBERS';

export class BodyScanError extends Error {
  constructor(
    readonly code: BodyScanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BodyScanError';
  }
}

/** The scanned `msisdns`: the domain's number list. */
export type ScannedNumbers = NumberList;

export interface ScannedBody {
  /**
   * Every top-level member except `msisdns`, each value as `JSON.parse` gives it: for the
   * request's schema to parse (send-request.ts).
   */
  fields: Record<string, unknown>;
  msisdns?: ScannedNumbers;
}

const NUMBERS_MEMBER = 'msisdns';
// RFC 8259 §9 lets a parser limit nesting; no send field comes close.
const MAX_DEPTH = 512;
// The shortest valid element, `"0XXXXXXXXX"`, is 12 bytes: sizing the NumberSet for
// (bytes left / 12) is an upper bound on valid numbers, so it never regrows mid-scan.
const MIN_BYTES_PER_NUMBER = 12;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const DIGIT_0 = 0x30;
const DIGIT_1 = 0x31;
const DIGIT_9 = 0x39;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, SLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t
const LETTER_E = 0x65;
const LETTER_CAPITAL_E = 0x45;
const LETTER_U = 0x75;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

export function scanSendBody(body: Buffer, options: { maxNumbers: number }): ScannedBody {
  return new SendBodyScanner(body, options.maxNumbers).scan();
}

class SendBodyScanner {
  private pos = 0;
  private readonly length: number;

  constructor(
    private readonly buf: Buffer,
    private readonly maxNumbers: number,
  ) {
    this.length = buf.length;
  }

  scan(): ScannedBody {
    this.pos = skipWhitespace(this.buf, 0, this.length);
    if (this.pos === this.length) throw invalidJson('the body is empty');
    if (this.buf[this.pos] !== OPEN_BRACE) {
      this.skipValue();
      this.expectEnd();
      throw new BodyScanError('INVALID_PARAMETER', 'body must be a JSON object');
    }
    const result = this.scanMembers();
    this.expectEnd();
    return result;
  }

  private scanMembers(): ScannedBody {
    const fields: Record<string, unknown> = {};
    const seen = new Set<string>();
    let msisdns: ScannedNumbers | undefined;
    this.pos++;
    if (this.peekAfterWhitespace() === CLOSE_BRACE) {
      this.pos++;
      return { fields };
    }
    for (;;) {
      const key = this.readMemberName();
      if (seen.has(key)) {
        throw new BodyScanError('INVALID_PARAMETER', `duplicate member ${JSON.stringify(key)}`);
      }
      seen.add(key);
      this.pos = skipWhitespace(this.buf, this.pos, this.length);
      if (key === NUMBERS_MEMBER) {
        msisdns = this.scanNumbers();
      } else {
        // defineProperty, not assignment: a "__proto__" member must stay an own property.
        Object.defineProperty(fields, key, {
          value: this.readValue(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      const next = this.peekAfterWhitespace();
      this.pos++;
      if (next === CLOSE_BRACE) break;
      if (next !== COMMA) throw this.unexpected(this.pos - 1, "',' or '}'");
    }
    return msisdns === undefined ? { fields } : { fields, msisdns };
  }

  /** Reads `"name" :` (whitespace allowed around) and returns the decoded name. */
  private readMemberName(): string {
    const start = this.skipMemberName();
    const name = this.decodeString(start, this.pos);
    this.skipColon();
    return name;
  }

  /** Steps over a member name, leaving `pos` after its closing quote; returns where it began. */
  private skipMemberName(): number {
    const start = skipWhitespace(this.buf, this.pos, this.length);
    if (this.buf[start] !== QUOTE) throw this.unexpected(start, 'a member name');
    this.pos = start;
    this.pos = this.skipString();
    return start;
  }

  private skipMemberPrefix(): void {
    this.skipMemberName();
    this.skipColon();
  }

  private skipColon(): void {
    if (this.peekAfterWhitespace() !== COLON) throw this.unexpected(this.pos, "':'");
    this.pos++;
  }

  private readValue(): unknown {
    const start = this.pos;
    this.skipValue();
    return JSON.parse(this.buf.toString('utf8', start, this.pos));
  }

  private scanNumbers(): ScannedNumbers {
    if (this.buf[this.pos] !== OPEN_BRACKET) {
      this.skipValue();
      throw new BodyScanError('INVALID_PARAMETER', 'msisdns must be an array of strings');
    }
    const buf = this.buf;
    const length = this.length;
    const estimate = Math.ceil((length - this.pos) / MIN_BYTES_PER_NUMBER);
    const numbers = new NumberCollector(Math.min(this.maxNumbers, estimate));
    const maxNumbers = this.maxNumbers;
    let pos = skipWhitespace(buf, this.pos + 1, length);
    if (buf[pos] === CLOSE_BRACKET) {
      this.pos = pos + 1;
      return numbers.finish();
    }
    for (;;) {
      if (numbers.requested === maxNumbers) {
        throw new BodyScanError(
          'TOO_MANY_NUMBERS',
          `at most ${this.maxNumbers} numbers per request`,
        );
      }
      if (buf[pos] !== QUOTE) {
        this.pos = pos;
        this.skipValue();
        throw new BodyScanError(
          'INVALID_PARAMETER',
          `msisdns[${numbers.requested}] must be a string`,
        );
      }
      const start = pos + 1;
      let end = start;
      // Hot loop: find the closing quote of a string with no escapes or control characters.
      while (end < length) {
        const byte = buf[end] as number;
        if (byte === QUOTE || byte === BACKSLASH || byte < SPACE) break;
        end++;
      }
      if (buf[end] === QUOTE) {
        const suffix = msisdnBytesToSuffix(buf, start, end);
        if (suffix >= 0) numbers.addValid(suffix);
        else numbers.addText(buf.toString('utf8', start, end));
        pos = end + 1;
      } else {
        this.pos = pos;
        pos = this.skipString();
        numbers.addText(this.decodeString(start - 1, pos));
      }

      pos = skipWhitespace(buf, pos, length);
      const next = buf[pos];
      if (next === COMMA) {
        pos = skipWhitespace(buf, pos + 1, length);
      } else if (next === CLOSE_BRACKET) {
        this.pos = pos + 1;
        return numbers.finish();
      } else {
        throw this.unexpected(pos, "',' or ']'");
      }
    }
  }

  /**
   * Steps over one JSON value starting at `pos` (no leading whitespace), validating it fully.
   * Iterative, with the open containers kept in a fixed-size stack (1 = object, 0 = array).
   */
  private skipValue(): void {
    const containers = new Uint8Array(MAX_DEPTH);
    let depth = 0;
    for (;;) {
      this.pos = skipWhitespace(this.buf, this.pos, this.length);
      const byte = this.buf[this.pos];
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (depth === MAX_DEPTH)
          throw invalidJson(`nesting deeper than ${MAX_DEPTH} at byte ${this.pos}`);
        const isObject = byte === OPEN_BRACE;
        this.pos++;
        const close = isObject ? CLOSE_BRACE : CLOSE_BRACKET;
        if (this.peekAfterWhitespace() !== close) {
          containers[depth++] = isObject ? 1 : 0;
          if (isObject) this.skipMemberPrefix();
          continue;
        }
        this.pos++;
      } else {
        this.skipScalar();
      }
      // A value just ended: close finished containers until one expects another value.
      for (;;) {
        if (depth === 0) return;
        const isObject = containers[depth - 1] === 1;
        const next = this.peekAfterWhitespace();
        this.pos++;
        if (next === COMMA) {
          if (isObject) this.skipMemberPrefix();
          break;
        }
        if (next !== (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          throw this.unexpected(this.pos - 1, isObject ? "',' or '}'" : "',' or ']'");
        }
        depth--;
      }
    }
  }

  private skipScalar(): void {
    const byte = this.buf[this.pos];
    if (byte === QUOTE) this.pos = this.skipString();
    else if (byte === MINUS || isDigit(byte)) this.skipNumber();
    else if (byte === 0x74) this.skipLiteral(TRUE);
    else if (byte === 0x66) this.skipLiteral(FALSE);
    else if (byte === 0x6e) this.skipLiteral(NULL);
    else throw this.unexpected(this.pos, 'a JSON value');
  }

  /** Validates the string opening at `pos`; returns the offset just past its closing quote. */
  private skipString(): number {
    const buf = this.buf;
    let i = this.pos + 1;
    for (;;) {
      const byte = buf[i];
      if (byte === undefined) throw invalidJson(`unterminated string starting at byte ${this.pos}`);
      if (byte === QUOTE) return i + 1;
      if (byte < SPACE)
        throw invalidJson(`control character 0x${hex(byte)} in string at byte ${i}`);
      if (byte === BACKSLASH) i = this.skipEscape(i);
      else i++;
    }
  }

  /** Validates the escape at `i` (its backslash); returns the offset after it. */
  private skipEscape(i: number): number {
    const kind = this.buf[i + 1];
    if (kind !== undefined && SIMPLE_ESCAPES.has(kind)) return i + 2;
    if (kind !== LETTER_U) throw invalidJson(`invalid escape in string at byte ${i}`);
    for (let k = i + 2; k < i + 6; k++) {
      if (!isHexDigit(this.buf[k])) throw invalidJson(`invalid \\u escape in string at byte ${i}`);
    }
    return i + 6;
  }

  /** RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
  private skipNumber(): void {
    const buf = this.buf;
    let i = this.pos;
    if (buf[i] === MINUS) i++;
    if (buf[i] === DIGIT_0) i++;
    else if (isDigitOneToNine(buf[i])) i = skipDigits(buf, i + 1);
    else throw this.unexpected(i, 'a digit');
    if (buf[i] === DOT) {
      if (!isDigit(buf[i + 1])) throw this.unexpected(i + 1, 'a digit');
      i = skipDigits(buf, i + 1);
    }
    if (buf[i] === LETTER_E || buf[i] === LETTER_CAPITAL_E) {
      i++;
      if (buf[i] === PLUS || buf[i] === MINUS) i++;
      if (!isDigit(buf[i])) throw this.unexpected(i, 'a digit');
      i = skipDigits(buf, i);
    }
    this.pos = i;
  }

  private skipLiteral(word: Buffer): void {
    for (let k = 0; k < word.length; k++) {
      if (this.buf[this.pos + k] !== word[k]) throw this.unexpected(this.pos + k, `'${word}'`);
    }
    this.pos += word.length;
  }

  /** Decodes the validated string literal [start, end), quotes included. */
  private decodeString(start: number, end: number): string {
    const raw = this.buf.toString('utf8', start, end);
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  private peekAfterWhitespace(): number | undefined {
    this.pos = skipWhitespace(this.buf, this.pos, this.length);
    return this.buf[this.pos];
  }

  private expectEnd(): void {
    const end = skipWhitespace(this.buf, this.pos, this.length);
    if (end !== this.length) throw this.unexpected(end, 'the end of the body');
  }

  private unexpected(at: number, expected: string): BodyScanError {
    const byte = this.buf[at];
    if (byte === undefined)
      return invalidJson(`unexpected end of body at byte ${at}, expected ${expected}`);
    const shown =
      byte > SPACE && byte < 0x7f ? `'${String.fromCharCode(byte)}'` : `byte 0x${hex(byte)}`;
    return invalidJson(`unexpected ${shown} at byte ${at}, expected ${expected}`);
  }
}

function invalidJson(detail: string): BodyScanError {
  return new BodyScanError('INVALID_JSON', `body is not valid JSON: ${detail}`);
}

function skipWhitespace(buf: Buffer, pos: number, length: number): number {
  while (pos < length) {
    const byte = buf[pos];
    if (byte !== SPACE && byte !== LF && byte !== CR && byte !== TAB) break;
    pos++;
  }
  return pos;
}

function skipDigits(buf: Buffer, pos: number): number {
  while (isDigit(buf[pos])) pos++;
  return pos;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= DIGIT_0 && byte <= DIGIT_9;
}

function isDigitOneToNine(byte: number | undefined): boolean {
  return byte !== undefined && byte >= DIGIT_1 && byte <= DIGIT_9;
}

function isHexDigit(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  const lower = byte | 0x20;
  return (byte >= DIGIT_0 && byte <= DIGIT_9) || (lower >= 0x61 && lower <= 0x66);
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
