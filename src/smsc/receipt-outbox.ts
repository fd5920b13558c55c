import { type Pdu, TlvTag } from '../carriers/smpp/pdu.js';
import { shortMessageFields } from '../carriers/smpp/short-message-fields.js';
import { cStringTlv, integerTlv } from '../carriers/smpp/tlv.js';
import type { SimulatedStat } from './receipt-fate.js';
import { MESSAGE_STATE, receiptText } from './receipt-text.js';
import type { SmscConnection } from './smsc-connection.js';
import type { SmscLogger } from './smsc-options.js';
import type { SmscStats } from './smsc-stats.js';
import { TimerWheel } from './timer-wheel.js';

/** SMPP 3.4 §5.2.12: esm_class message type 0001, SMSC delivery receipt. */
const ESM_CLASS_DELIVERY_RECEIPT = 0x04;
/** Receipts in flight per receiver bind without their deliver_sm_resp, as an SMSC windows them. */
const RECEIPT_WINDOW = 100;

/** A receipt on its way to a receiver bind of the system_id that submitted the part. */
export interface PendingReceipt {
  readonly systemId: string;
  readonly messageId: string;
  readonly stat: SimulatedStat;
  /** Addresses of the receipt: from the part's destination, to its source (SMPP 3.4 §4.6.1). */
  readonly sourceAddr: string;
  readonly sourceAddrTon: number;
  readonly sourceAddrNpi: number;
  readonly destinationAddr: string;
  readonly destAddrTon: number;
  readonly destAddrNpi: number;
  readonly submittedAtMs: number;
  readonly text: string;
  attempts: number;
  /** Where and as what it was last sent, while waiting for the deliver_sm_resp. */
  connection: SmscConnection | null;
  sequenceNumber: number;
  /** Called once, when a client acknowledges the receipt or it is given up. */
  onSettled?: () => void;
}

interface RetryCheck {
  readonly receipt: PendingReceipt;
  readonly attempt: number;
}

/**
 * Delivers receipts to the receiver and transceiver binds of their system_id, round robin, at
 * most RECEIPT_WINDOW unacknowledged per bind. A receipt with nowhere to go waits in its
 * system_id's queue until a receiver binds or a window opens; one without its deliver_sm_resp
 * after `retryIntervalMs` is sent again, up to `maxAttempts` sends in all.
 */
export class ReceiptOutbox {
  private readonly queues = new Map<string, ReceiptQueue>();
  private readonly receivers = new Map<string, SmscConnection[]>();
  /** Where each system_id's round robin resumes. */
  private readonly turns = new Map<string, number>();
  private readonly retries: TimerWheel<RetryCheck>;

  constructor(
    private readonly stats: SmscStats,
    private readonly retryIntervalMs: number,
    private readonly maxAttempts: number,
    private readonly logger: SmscLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.retries = new TimerWheel((checks) => this.retry(checks), 10, now);
  }

  enqueue(receipt: PendingReceipt): void {
    this.queueOf(receipt.systemId).push(receipt);
    this.stats.receiptsQueued += 1;
    this.pump(receipt.systemId);
  }

  receiverBound(connection: SmscConnection): void {
    const systemId = connection.systemId!;
    const list = this.receivers.get(systemId) ?? [];
    list.push(connection);
    this.receivers.set(systemId, list);
    this.pump(systemId);
  }

  /** A deliver_sm_resp: settled when OK; otherwise the retry sends the receipt again. */
  acknowledge(connection: SmscConnection, sequenceNumber: number, commandStatus: number): void {
    const receipt = connection.awaitingAck.get(sequenceNumber);
    if (receipt === undefined || commandStatus !== 0) return;
    connection.awaitingAck.delete(sequenceNumber);
    receipt.connection = null;
    this.stats.receiptsAcknowledged += 1;
    receipt.onSettled?.();
    this.pump(receipt.systemId);
  }

  /** The connection is gone: what it had not acknowledged goes back to the front of the queue. */
  connectionClosed(connection: SmscConnection): void {
    if (connection.systemId === null || !connection.canReceive) return;
    const list = this.receivers.get(connection.systemId);
    if (list !== undefined) {
      const remaining = list.filter((c) => c !== connection);
      if (remaining.length > 0) this.receivers.set(connection.systemId, remaining);
      else this.receivers.delete(connection.systemId);
      this.turns.delete(connection.systemId);
    }
    const unacknowledged = [...connection.awaitingAck.values()];
    connection.awaitingAck.clear();
    const queue = this.queueOf(connection.systemId);
    for (const receipt of unacknowledged.reverse()) {
      receipt.connection = null;
      queue.unshift(receipt);
      this.stats.receiptsQueued += 1;
    }
    this.pump(connection.systemId);
  }

  close(): void {
    this.retries.close();
    this.queues.clear();
    this.receivers.clear();
  }

  private pump(systemId: string): void {
    const queue = this.queues.get(systemId);
    const receivers = this.receivers.get(systemId);
    if (queue === undefined || receivers === undefined) return;
    let idle = 0;
    let turn = this.turns.get(systemId) ?? 0;
    // Round robin over the binds with room in their window, until the queue or the room runs out.
    while (queue.length > 0 && idle < receivers.length) {
      const connection = receivers[turn++ % receivers.length]!;
      if (connection.closed || connection.awaitingAck.size >= RECEIPT_WINDOW) {
        idle++;
        continue;
      }
      idle = 0;
      const receipt = queue.shift()!;
      this.stats.receiptsQueued -= 1;
      if (receipt.attempts >= this.maxAttempts) {
        this.stats.receiptsDropped += 1;
        this.logger.warn(
          { systemId, messageId: receipt.messageId, attempts: receipt.attempts },
          'receipt dropped: no deliver_sm_resp after every attempt',
        );
        receipt.onSettled?.();
        continue;
      }
      this.send(receipt, connection);
    }
    this.turns.set(systemId, turn % receivers.length);
    if (queue.length === 0) this.queues.delete(systemId);
  }

  private send(receipt: PendingReceipt, connection: SmscConnection): void {
    if (receipt.attempts === 0) this.stats.receiptsSent[receipt.stat] += 1;
    else this.stats.receiptsResent += 1;
    receipt.attempts += 1;
    receipt.connection = connection;
    receipt.sequenceNumber = connection.sendRequest((sequenceNumber) =>
      receiptPdu(receipt, sequenceNumber, this.now()),
    );
    connection.awaitingAck.set(receipt.sequenceNumber, receipt);
    this.retries.schedule(
      { receipt, attempt: receipt.attempts },
      this.now() + this.retryIntervalMs,
    );
  }

  private retry(checks: RetryCheck[]): void {
    const touched = new Set<string>();
    for (const { receipt, attempt } of checks) {
      const connection = receipt.connection;
      // Acknowledged, or already sent again since this check was set: nothing to do.
      if (connection === null || receipt.attempts !== attempt) continue;
      connection.awaitingAck.delete(receipt.sequenceNumber);
      receipt.connection = null;
      this.queueOf(receipt.systemId).unshift(receipt);
      this.stats.receiptsQueued += 1;
      touched.add(receipt.systemId);
    }
    for (const systemId of touched) this.pump(systemId);
  }

  private queueOf(systemId: string): ReceiptQueue {
    let queue = this.queues.get(systemId);
    if (queue === undefined) {
      queue = new ReceiptQueue();
      this.queues.set(systemId, queue);
    }
    return queue;
  }
}

/** A deque: shift and push in O(1) at hundreds of thousands of waiting receipts. */
class ReceiptQueue {
  private items: (PendingReceipt | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(receipt: PendingReceipt): void {
    this.items.push(receipt);
  }

  unshift(receipt: PendingReceipt): void {
    if (this.head > 0) this.items[--this.head] = receipt;
    else this.items.unshift(receipt);
  }

  shift(): PendingReceipt | undefined {
    if (this.head >= this.items.length) return undefined;
    const receipt = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return receipt;
  }
}

/** The deliver_sm of a receipt, with both receipt TLVs and the Appendix B text (SMPP 3.4 §4.6.1). */
function receiptPdu(receipt: PendingReceipt, sequenceNumber: number, nowMs: number): Pdu {
  const text = receiptText({
    messageId: receipt.messageId,
    stat: receipt.stat,
    submittedAtMs: receipt.submittedAtMs,
    doneAtMs: nowMs,
    text: receipt.text,
  });
  return {
    command: 'deliver_sm',
    commandStatus: 0,
    sequenceNumber,
    ...shortMessageFields({
      sourceAddr: receipt.sourceAddr,
      sourceAddrTon: receipt.sourceAddrTon,
      sourceAddrNpi: receipt.sourceAddrNpi,
      destinationAddr: receipt.destinationAddr,
      destAddrTon: receipt.destAddrTon,
      destAddrNpi: receipt.destAddrNpi,
      esmClass: ESM_CLASS_DELIVERY_RECEIPT,
      dataCoding: 0,
      shortMessage: Buffer.from(text, 'latin1'),
      tlvs: [
        cStringTlv(TlvTag.receipted_message_id, receipt.messageId),
        integerTlv(TlvTag.message_state, MESSAGE_STATE[receipt.stat], 1),
      ],
    }),
  };
}
