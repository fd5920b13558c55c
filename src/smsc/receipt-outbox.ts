import { type Pdu, TlvTag } from '../carriers/smpp/pdu.js';
import { shortMessageFields } from '../carriers/smpp/short-message-fields.js';
import { cStringTlv, integerTlv } from '../carriers/smpp/tlv.js';
import type { SimulatedStat } from './receipt-fate.js';
import { MESSAGE_STATE, receiptText } from './receipt-text.js';
import type { SmscConnection } from './smsc-connection.js';
import type { SmscLogger } from './smsc-options.js';
import type { SmscStats } from './smsc-stats.js';

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
  /**
   * The bind that submitted the part. A transceiver gets its receipts back on itself, behind the
   * submit_sm_resp on the same stream: on another bind a receipt can overtake that answer in a
   * client that reads each bind on a thread of its own (Kannel), which then finds no message
   * for it and drops it.
   */
  readonly origin: SmscConnection | null;
  attempts: number;
  /** Where, as what and when it was last sent, while waiting for the deliver_sm_resp. */
  connection: SmscConnection | null;
  sequenceNumber: number;
  sentAtMs: number;
  /** Called once, when a client acknowledges the receipt or it is given up. */
  onSettled?: () => void;
}

/**
 * Delivers receipts, at most RECEIPT_WINDOW unacknowledged per bind: a part submitted on a
 * transceiver gets its receipt on that same bind, after the submit_sm_resp (see
 * PendingReceipt.origin), waiting for room in its window; any other receipt (its part came from a
 * transmitter, or its transceiver is gone) goes to the receiver and transceiver binds of its
 * system_id, round robin, and waits in the system_id's queue until a receiver binds or a window
 * opens. One without its deliver_sm_resp after `retryIntervalMs` is sent again, up to
 * `maxAttempts` sends in all. The windows bound what awaits an answer, so one periodic sweep over
 * them finds the overdue receipts: no timer per receipt, and an acknowledged receipt is garbage
 * at once. After every step a bind with room in its window has nothing left to take.
 */
export class ReceiptOutbox {
  /** Receipts any receiver bind of the system_id may take. */
  private readonly queues = new Map<string, ReceiptQueue>();
  /** Receipts waiting for room on the transceiver that submitted their part. */
  private readonly ownQueues = new Map<SmscConnection, ReceiptQueue>();
  private readonly receivers = new Map<string, SmscConnection[]>();
  /** Where each system_id's round robin resumes. */
  private readonly turns = new Map<string, number>();
  /**
   * Receipts sent and not yet acknowledged, by connection and deliver_sm sequence_number: what
   * the sweep looks at.
   */
  private readonly awaitingAck = new Map<SmscConnection, Map<number, PendingReceipt>>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly stats: SmscStats,
    private readonly retryIntervalMs: number,
    private readonly maxAttempts: number,
    private readonly logger: SmscLogger,
    private readonly now: () => number = Date.now,
  ) {}

  enqueue(receipt: PendingReceipt): void {
    this.stats.receiptsQueued += 1;
    const origin = receipt.origin;
    if (origin !== null && takesOwnReceipts(origin, receipt.systemId)) {
      this.ownQueueOf(origin).push(receipt);
      this.fill(origin);
      return;
    }
    this.queueOf(receipt.systemId).push(receipt);
    this.pump(receipt.systemId);
  }

  receiverBound(connection: SmscConnection): void {
    const systemId = connection.systemId!;
    const list = this.receivers.get(systemId) ?? [];
    list.push(connection);
    this.receivers.set(systemId, list);
    this.fill(connection);
  }

  /** A deliver_sm_resp: settled when OK; otherwise the retry sends the receipt again. */
  acknowledge(connection: SmscConnection, sequenceNumber: number, commandStatus: number): void {
    const awaiting = this.awaitingAck.get(connection);
    const receipt = awaiting?.get(sequenceNumber);
    if (receipt === undefined || commandStatus !== 0) return;
    awaiting!.delete(sequenceNumber);
    receipt.connection = null;
    this.stats.receiptsAcknowledged += 1;
    receipt.onSettled?.();
    this.fill(connection);
  }

  /**
   * The bind is gone: what it had not acknowledged, then what waited for it, goes to the front of
   * its system_id's queue, for the other binds.
   */
  connectionClosed(connection: SmscConnection): void {
    if (connection.systemId === null || !connection.canReceive) return;
    const list = this.receivers.get(connection.systemId);
    if (list !== undefined) {
      const remaining = list.filter((c) => c !== connection);
      if (remaining.length > 0) this.receivers.set(connection.systemId, remaining);
      else this.receivers.delete(connection.systemId);
      this.turns.delete(connection.systemId);
    }
    const unacknowledged = [...(this.awaitingAck.get(connection)?.values() ?? [])];
    this.awaitingAck.delete(connection);
    for (const receipt of unacknowledged) receipt.connection = null;
    this.stats.receiptsQueued += unacknowledged.length;
    const waiting = this.ownQueues.get(connection)?.toArray() ?? [];
    this.ownQueues.delete(connection);
    this.queueOf(connection.systemId).prepend([...unacknowledged, ...waiting]);
    this.pump(connection.systemId);
  }

  close(): void {
    this.stopSweeping();
    this.queues.clear();
    this.ownQueues.clear();
    this.receivers.clear();
  }

  /** Round robin over the system_id's binds with room in their window, until nothing is left. */
  private pump(systemId: string): void {
    const receivers = this.receivers.get(systemId);
    if (receivers === undefined || !this.queues.has(systemId)) return;
    let idle = 0;
    let turn = this.turns.get(systemId) ?? 0;
    while (idle < receivers.length) {
      const connection = receivers[turn++ % receivers.length]!;
      if (this.sendNext(connection)) idle = 0;
      else idle++;
    }
    this.turns.set(systemId, turn % receivers.length);
  }

  /** Sends to one bind while it has room and a receipt to take. */
  private fill(connection: SmscConnection): void {
    while (this.sendNext(connection));
  }

  /**
   * Sends the bind's next receipt, from its own queue first, then its system_id's; false when
   * its window is full or both are empty. A receipt past its attempts is dropped instead.
   */
  private sendNext(connection: SmscConnection): boolean {
    const systemId = connection.systemId;
    const awaiting = this.awaitingAck.get(connection)?.size ?? 0;
    if (connection.closed || systemId === null || awaiting >= RECEIPT_WINDOW) {
      return false;
    }
    const receipt =
      this.takeFrom(this.ownQueues, connection) ?? this.takeFrom(this.queues, systemId);
    if (receipt === undefined) return false;
    this.stats.receiptsQueued -= 1;
    if (receipt.attempts >= this.maxAttempts) {
      this.stats.receiptsDropped += 1;
      this.logger.warn(
        { systemId, messageId: receipt.messageId, attempts: receipt.attempts },
        'receipt dropped: no deliver_sm_resp after every attempt',
      );
      receipt.onSettled?.();
      return true;
    }
    this.send(receipt, connection);
    return true;
  }

  private takeFrom<K>(queues: Map<K, ReceiptQueue>, key: K): PendingReceipt | undefined {
    const queue = queues.get(key);
    if (queue === undefined) return undefined;
    const receipt = queue.shift();
    if (queue.length === 0) queues.delete(key);
    return receipt;
  }

  private send(receipt: PendingReceipt, connection: SmscConnection): void {
    if (receipt.attempts === 0) this.stats.receiptsSent[receipt.stat] += 1;
    else this.stats.receiptsResent += 1;
    receipt.attempts += 1;
    receipt.connection = connection;
    receipt.sequenceNumber = connection.sendRequest((sequenceNumber) =>
      receiptPdu(receipt, sequenceNumber, this.now()),
    );
    receipt.sentAtMs = this.now();
    let awaiting = this.awaitingAck.get(connection);
    if (awaiting === undefined) {
      awaiting = new Map();
      this.awaitingAck.set(connection, awaiting);
    }
    awaiting.set(receipt.sequenceNumber, receipt);
    this.sweepTimer ??= setInterval(
      () => this.sweep(),
      Math.max(5, Math.min(1000, this.retryIntervalMs / 4)),
    );
  }

  /**
   * Puts receipts unanswered for retryIntervalMs back at the front of their queues: a
   * transceiver's own receipt in its own, any other in its system_id's.
   */
  private sweep(): void {
    const overdueBefore = this.now() - this.retryIntervalMs;
    const touched = new Set<string>();
    for (const [connection, awaiting] of this.awaitingAck) {
      for (const [sequenceNumber, receipt] of awaiting) {
        if (receipt.sentAtMs > overdueBefore) continue;
        awaiting.delete(sequenceNumber);
        receipt.connection = null;
        const own = receipt.origin === connection;
        (own ? this.ownQueueOf(connection) : this.queueOf(receipt.systemId)).unshift(receipt);
        this.stats.receiptsQueued += 1;
        touched.add(receipt.systemId);
      }
      if (awaiting.size === 0) this.awaitingAck.delete(connection);
    }
    for (const systemId of touched) {
      for (const connection of this.receivers.get(systemId) ?? []) this.fill(connection);
      this.pump(systemId);
    }
    if (this.awaitingAck.size === 0) this.stopSweeping();
  }

  private stopSweeping(): void {
    if (this.sweepTimer !== null) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.awaitingAck.clear();
  }

  private queueOf(systemId: string): ReceiptQueue {
    let queue = this.queues.get(systemId);
    if (queue === undefined) {
      queue = new ReceiptQueue();
      this.queues.set(systemId, queue);
    }
    return queue;
  }

  private ownQueueOf(connection: SmscConnection): ReceiptQueue {
    let queue = this.ownQueues.get(connection);
    if (queue === undefined) {
      queue = new ReceiptQueue();
      this.ownQueues.set(connection, queue);
    }
    return queue;
  }
}

/** Whether the bind that submitted a part is still there to take its receipt. */
function takesOwnReceipts(connection: SmscConnection, systemId: string): boolean {
  return !connection.closed && connection.systemId === systemId && connection.canReceive;
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

  /** Puts `receipts`, in their order, ahead of everything queued. */
  prepend(receipts: readonly PendingReceipt[]): void {
    if (receipts.length === 0) return;
    this.items = [...receipts, ...this.items.slice(this.head)];
    this.head = 0;
  }

  toArray(): PendingReceipt[] {
    return this.items.slice(this.head) as PendingReceipt[];
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
