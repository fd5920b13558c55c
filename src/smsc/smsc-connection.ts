import type { Socket } from 'node:net';
import { encodePdus } from '../carriers/smpp/encode-pdu.js';
import { errorResponse } from '../carriers/smpp/error-response.js';
import { CommandStatus, type BindMode, type Pdu } from '../carriers/smpp/pdu.js';
import { PduReader } from '../carriers/smpp/pdu-reader.js';
import { PduDecodeError, PduFramingError } from '../carriers/smpp/smpp-errors.js';

/** PDUs decoded per event-loop turn before yielding, so one busy client cannot stall the rest. */
const MAX_PDUS_PER_TURN = 256;
/** Stop reading a client that does not read its answers once this much waits to be written. */
const WRITE_BACKLOG_BYTES = 4 * 1024 * 1024;

export interface ConnectionHandler {
  onPdu(connection: SmscConnection, pdu: Pdu): void;
  onClose(connection: SmscConnection): void;
}

/**
 * One client's TCP connection to the simulator: frames its bytes into PDUs (a bounded number per
 * turn), answers what it cannot decode, and writes everything sent during one turn as one buffer.
 */
export class SmscConnection {
  /** Set once a bind succeeds. */
  systemId: string | null = null;
  mode: BindMode | null = null;
  /** submit_sm received on this connection, for dropConnectionAfterSubmits. */
  submits = 0;
  closed = false;

  private readonly reader = new PduReader();
  private outgoing: Pdu[] = [];
  private nextSequence = 1;
  private draining = false;

  constructor(
    readonly socket: Socket,
    private readonly handler: ConnectionHandler,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.reader.push(chunk);
      this.drain();
    });
    socket.on('drain', () => {
      if (!this.draining) socket.resume();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.outgoing = [];
      handler.onClose(this);
    });
  }

  get canTransmit(): boolean {
    return this.mode === 'transmitter' || this.mode === 'transceiver';
  }

  get canReceive(): boolean {
    return this.mode === 'receiver' || this.mode === 'transceiver';
  }

  /** Queues `pdu`; everything queued in this turn leaves in one write. */
  send(pdu: Pdu): void {
    if (this.closed) return;
    if (this.outgoing.length === 0) process.nextTick(() => this.flush());
    this.outgoing.push(pdu);
  }

  /** Sends a request of ours with the next sequence_number, which it returns. */
  sendRequest(build: (sequenceNumber: number) => Pdu): number {
    const sequenceNumber = this.nextSequence;
    // SMPP 3.4 §5.1.4: 0x00000001 to 0x7FFFFFFF.
    this.nextSequence = sequenceNumber === 0x7fffffff ? 1 : sequenceNumber + 1;
    this.send(build(sequenceNumber));
    return sequenceNumber;
  }

  /** Writes what is queued, then closes gracefully. */
  end(): void {
    if (this.closed) return;
    this.flush();
    this.socket.end();
  }

  /** Closes at once, dropping anything queued: an abrupt loss of the connection. */
  destroy(): void {
    this.outgoing = [];
    this.socket.destroy();
  }

  private flush(): void {
    if (this.outgoing.length === 0 || this.closed) return;
    const batch = this.outgoing;
    this.outgoing = [];
    this.socket.write(encodePdus(batch));
    if (this.socket.writableLength > WRITE_BACKLOG_BYTES) this.socket.pause();
  }

  private drain(): void {
    let decoded = 0;
    while (!this.closed && decoded < MAX_PDUS_PER_TURN) {
      let pdu: Pdu | null;
      try {
        pdu = this.reader.next();
      } catch (error) {
        if (!this.answerUndecodable(error)) return;
        decoded++;
        continue;
      }
      if (pdu === null) break;
      decoded++;
      this.handler.onPdu(this, pdu);
    }
    if (decoded === MAX_PDUS_PER_TURN && !this.closed) {
      // More may be buffered: pause the socket and carry on next turn, after other clients.
      this.draining = true;
      this.socket.pause();
      setImmediate(() => {
        this.draining = false;
        if (this.closed) return;
        if (this.socket.writableLength <= WRITE_BACKLOG_BYTES) this.socket.resume();
        this.drain();
      });
    }
  }

  /** Answers a PDU that did not decode; false when the stream is lost and the connection closed. */
  private answerUndecodable(error: unknown): boolean {
    if (error instanceof PduDecodeError) {
      this.send(errorResponse(error.commandId, error.commandStatus, error.sequenceNumber));
      return true;
    }
    if (error instanceof PduFramingError) {
      // SMPP 3.4 §5.1.3: the length cannot be trusted, so neither can anything after it.
      this.send({
        command: 'generic_nack',
        commandStatus: CommandStatus.ESME_RINVCMDLEN,
        sequenceNumber: 0,
      });
      this.end();
      return false;
    }
    throw error;
  }
}
