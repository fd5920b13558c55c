// Frames a TCP byte stream into PDUs by command_length (SMPP 3.4 §3.2, §5.1.1). Chunks are kept
// as they arrive and joined only when a PDU straddles two of them, so a chunk that holds hundreds
// of PDUs is decoded in place. next() hands out one PDU at a time: the caller decides how many to
// decode before yielding to the event loop, so a large backlog never runs as one synchronous burst.
import { decodePdu } from './decode-pdu.js';
import { HEADER_BYTES, type Pdu } from './pdu.js';
import { PduFramingError } from './smpp-errors.js';

/** Largest command_length accepted unless told otherwise: far above any PDU Nok sends or expects. */
export const DEFAULT_MAX_COMMAND_LENGTH = 64 * 1024;

export interface PduReaderOptions {
  /** command_length above this is a framing error (default 64 KiB). */
  readonly maxCommandLength?: number;
}

export class PduReader {
  private readonly maxCommandLength: number;
  private chunks: Buffer[] = [];
  /** Read offset into chunks[0]. */
  private head = 0;
  private buffered = 0;
  private failure: PduFramingError | null = null;

  constructor(options: PduReaderOptions = {}) {
    this.maxCommandLength = options.maxCommandLength ?? DEFAULT_MAX_COMMAND_LENGTH;
  }

  /** Bytes received and not yet handed out as PDUs. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /**
   * The next complete PDU, or null until more bytes arrive. Throws PduFramingError when
   * command_length is out of bounds (the stream is lost: every later call throws it again), or
   * PduDecodeError when a framed PDU's body does not parse (that PDU is skipped; carry on).
   */
  next(): Pdu | null {
    if (this.failure) throw this.failure;
    if (this.buffered < 4) return null;
    const commandLength = this.peekLength();
    if (commandLength < HEADER_BYTES || commandLength > this.maxCommandLength) {
      this.failure = new PduFramingError(
        commandLength,
        `command_length ${commandLength} is outside ${HEADER_BYTES}..${this.maxCommandLength}`,
      );
      throw this.failure;
    }
    if (this.buffered < commandLength) return null;
    const first = this.chunks[0] as Buffer;
    if (first.length - this.head >= commandLength) {
      const start = this.head;
      this.consume(commandLength);
      return decodePdu(first, start, start + commandLength);
    }
    return decodePdu(this.take(commandLength));
  }

  private peekLength(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length - this.head >= 4) return first.readUInt32BE(this.head);
    let length = 0;
    let chunk = 0;
    let at = this.head;
    for (let i = 0; i < 4; i++) {
      while (at >= (this.chunks[chunk] as Buffer).length) {
        chunk++;
        at = 0;
      }
      length = length * 256 + ((this.chunks[chunk] as Buffer)[at++] as number);
    }
    return length;
  }

  /** Copies `length` bytes that straddle chunks into one buffer of their own. */
  private take(length: number): Buffer {
    const frame = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const first = this.chunks[0] as Buffer;
      const count = Math.min(length - filled, first.length - this.head);
      first.copy(frame, filled, this.head, this.head + count);
      filled += count;
      this.consume(count);
    }
    return frame;
  }

  private consume(count: number): void {
    this.head += count;
    this.buffered -= count;
    if (this.head === (this.chunks[0] as Buffer).length) {
      this.chunks.shift();
      this.head = 0;
    }
  }
}
