import type { ConcatenationHeader } from '../carriers/smpp/message-text.js';
import type { BindMode } from '../carriers/smpp/pdu.js';
import type { SimulatedStat } from './receipt-fate.js';

/** What the SMSC has seen and done since it started; plain counters, read at any time. */
export interface SmscStats {
  /** Connections open now. */
  connections: number;
  /** Binds accepted, by mode, since the start. */
  readonly binds: Record<BindMode, number>;
  bindsRefused: number;
  /** Every submit_sm that arrived on a bound connection. */
  submitsReceived: number;
  /** Submits answered with a message id: each is one part. */
  partsAccepted: number;
  /** Accepted parts that start a message: single parts, and the first of concatenated ones. */
  messagesAccepted: number;
  submitsThrottled: number;
  submitsInvalidDestination: number;
  /** Submits that closed their connection (dropConnectionAfterSubmits), never answered. */
  submitsDropped: number;
  /** Receipts sent at least once, by stat. */
  readonly receiptsSent: Record<SimulatedStat, number>;
  receiptsResent: number;
  receiptsAcknowledged: number;
  /** Receipts given up after receiptMaxAttempts sends without a deliver_sm_resp. */
  receiptsDropped: number;
  /** Receipts waiting for a receiver bind or a free slot in one's window. */
  receiptsQueued: number;
  /** Every accepted submit, when recordSubmits is on; empty otherwise. */
  readonly submits: SubmitRecord[];
}

export interface SubmitRecord {
  readonly systemId: string;
  readonly sourceAddr: string;
  readonly destinationAddr: string;
  readonly dataCoding: number;
  readonly esmClass: number;
  readonly registeredDelivery: number;
  readonly udh?: ConcatenationHeader;
  readonly messageId: string;
  /** The part's text without its UDH; '' when data_coding is not text. */
  readonly text: string;
}

export function createSmscStats(): SmscStats {
  return {
    connections: 0,
    binds: { transmitter: 0, receiver: 0, transceiver: 0 },
    bindsRefused: 0,
    submitsReceived: 0,
    partsAccepted: 0,
    messagesAccepted: 0,
    submitsThrottled: 0,
    submitsInvalidDestination: 0,
    submitsDropped: 0,
    receiptsSent: { DELIVRD: 0, UNDELIV: 0, EXPIRED: 0, REJECTD: 0 },
    receiptsResent: 0,
    receiptsAcknowledged: 0,
    receiptsDropped: 0,
    receiptsQueued: 0,
    submits: [],
  };
}
