// Reads PDUs off a socket in bounded slices: at most maxPdusPerTurn are decoded and handled
// before yielding with setImmediate, so a backlog of thousands (a window's worth of responses,
// a burst of receipts) never holds the event loop in one synchronous run. Past maxBufferedBytes
// of undecoded input the socket is paused, so the SMSC's TCP window closes instead of memory
// filling up.
import type { Socket } from 'node:net';
import type { Pdu } from './pdu.js';
import { PduReader } from './pdu-reader.js';

export interface IncomingHandlers {
  pdu(pdu: Pdu): void;
  /** A PduFramingError (the stream is lost) or PduDecodeError (that PDU is skipped). */
  badPdu(error: unknown): void;
  /** True once the session is closed: reading stops. */
  stopped(): boolean;
}

export class IncomingPdus {
  private readonly reader = new PduReader();
  private immediate: NodeJS.Immediate | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly maxPdusPerTurn: number,
    private readonly maxBufferedBytes: number,
    private readonly handlers: IncomingHandlers,
  ) {}

  receive(chunk: Buffer): void {
    this.reader.push(chunk);
    if (this.reader.bufferedBytes > this.maxBufferedBytes) this.socket.pause();
    // With a slice already scheduled, that slice reads this chunk in its turn.
    if (this.immediate === null) this.readSlice();
  }

  stop(): void {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
  }

  private readonly readSlice = (): void => {
    this.immediate = null;
    for (let handled = 0; handled < this.maxPdusPerTurn; handled++) {
      if (this.handlers.stopped()) return;
      let pdu: Pdu | null;
      try {
        pdu = this.reader.next();
      } catch (error) {
        this.handlers.badPdu(error);
        continue;
      }
      if (pdu === null) {
        if (this.socket.isPaused()) this.socket.resume();
        return;
      }
      this.handlers.pdu(pdu);
    }
    if (!this.handlers.stopped()) this.immediate = setImmediate(this.readSlice);
  };
}
