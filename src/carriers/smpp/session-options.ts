import type { BindMode, DeliverSmPdu } from './pdu.js';

export interface SessionOptions {
  readonly host: string;
  readonly port: number;
  readonly mode: BindMode;
  readonly systemId: string;
  readonly password: string;
  readonly systemType?: string;
  readonly addrTon?: number;
  readonly addrNpi?: number;
  readonly addressRange?: string;
  /** TCP connect, default 10 s. */
  readonly connectTimeoutMs?: number;
  /** For every request: bind, submit_sm, enquire_link, unbind. Default 10 s. */
  readonly responseTimeoutMs?: number;
  /** submit_sm in flight at most (DESIGN §4 keeps it ≤ 100; more binds give more). Default 10. */
  readonly windowSize?: number;
  /** enquire_link after this long without a PDU from the SMSC. Default 30 s. */
  readonly enquireLinkIntervalMs?: number;
  /** PDUs decoded before yielding to the event loop. Default 128. */
  readonly maxPdusPerTurn?: number;
  /** Received bytes waiting to be decoded above which the socket is paused. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /**
   * Receives every deliver_sm in arrival order; its deliver_sm_resp goes out, with the status it
   * resolves with, only once it resolves. Given here, not later: a deliver_sm may follow bind_resp
   * in the same packet.
   */
  readonly onDeliver?: DeliverHandler;
  /** deliver_sm_resp status when onDeliver throws or is missing; default ESME_RSYSERR (retry). */
  readonly deliverFailureStatus?: number;
}

/** Resolves with the command_status for the deliver_sm_resp: ESME_ROK once the receipt is stored. */
export type DeliverHandler = (pdu: DeliverSmPdu) => Promise<number> | number;

/** The submit_sm_resp: a non-zero commandStatus is an answer too (see classifySubmitStatus). */
export interface SubmitResult {
  readonly commandStatus: number;
  /** The SMSC message id that receipts refer to; '' when the submit was refused. */
  readonly messageId: string;
}

export type CloseReason =
  | 'local-unbind'
  | 'local-destroy'
  | 'remote-unbind'
  | 'enquire-link-timeout'
  | 'protocol-error'
  | 'socket-error'
  | 'socket-closed';

export interface SessionClose {
  readonly reason: CloseReason;
  readonly error?: Error;
}
