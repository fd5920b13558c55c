import { decodeMessageText, readConcatenation } from '../carriers/smpp/message-text.js';
import { seededRandom } from './seeded-random.js';
import { CommandStatus, TlvTag, type SubmitSmPdu } from '../carriers/smpp/pdu.js';
import { findTlv } from '../carriers/smpp/tlv.js';
import type { PendingReceipt, ReceiptOutbox } from './receipt-outbox.js';
import { receiptFate } from './receipt-fate.js';
import type { SmscConnection } from './smsc-connection.js';
import type { ResolvedSmscOptions } from './smsc-options.js';
import type { SmscStats } from './smsc-stats.js';
import { SubmitThrottle } from './submit-throttle.js';
import { TimerWheel } from './timer-wheel.js';

/** SMPP 3.4 §5.2.17 registered_delivery bits 1-0: SMSC delivery receipt requested. */
const RECEIPT_ON_ANY_OUTCOME = 0x01;
const RECEIPT_ON_FAILURE = 0x02;

interface HeldResponse {
  readonly connection: SmscConnection;
  readonly sequenceNumber: number;
  readonly messageId: string;
  sent: boolean;
}

/**
 * Answers submit_sm the way the options say: drop the connection, throttle, refuse the
 * destination, or accept with a message id and line up the part's receipt, drawn from its
 * destination number's fate.
 */
export class SubmitHandler {
  private readonly throttle: SubmitThrottle | null;
  private readonly responses = new TimerWheel<HeldResponse>((held) => held.forEach(respond));
  private readonly nextDelay: () => number;

  constructor(
    private readonly options: ResolvedSmscOptions,
    private readonly stats: SmscStats,
    private readonly outbox: ReceiptOutbox,
    private readonly receiptTimers: TimerWheel<PendingReceipt>,
    private readonly nextMessageId: () => string,
    private readonly now: () => number,
  ) {
    const rate = options.throttleAboveSubmitsPerSecond;
    this.throttle = rate === null ? null : new SubmitThrottle(rate);
    const { min, max } = options.receiptDelayMs;
    const random = seededRandom(options.seed);
    this.nextDelay = min === max ? () => min : () => min + Math.floor(random() * (max - min + 1));
  }

  submit(connection: SmscConnection, pdu: SubmitSmPdu): void {
    this.stats.submitsReceived += 1;
    connection.submits += 1;
    const dropAfter = this.options.dropConnectionAfterSubmits;
    if (dropAfter !== null && connection.submits >= dropAfter) {
      this.stats.submitsDropped += 1;
      this.options.logger.info(
        { systemId: connection.systemId, submits: connection.submits },
        'connection dropped on purpose (dropConnectionAfterSubmits)',
      );
      connection.destroy();
      return;
    }
    const systemId = connection.systemId!;
    if (this.throttle !== null && !this.throttle.tryAccept(systemId)) {
      this.stats.submitsThrottled += 1;
      return this.reject(connection, pdu, CommandStatus.ESME_RTHROTTLED);
    }
    if (this.options.invalidPrefixes.some((p) => pdu.destinationAddr.startsWith(p))) {
      this.stats.submitsInvalidDestination += 1;
      return this.reject(connection, pdu, CommandStatus.ESME_RINVDSTADR);
    }
    this.accept(connection, pdu, systemId);
  }

  close(): void {
    this.responses.close();
  }

  private accept(connection: SmscConnection, pdu: SubmitSmPdu, systemId: string): void {
    const messageId = this.nextMessageId();
    const payload = payloadOf(pdu);
    const udh = readConcatenation(payload, pdu.esmClass);
    this.stats.partsAccepted += 1;
    if (udh === undefined || udh.seq === 1) this.stats.messagesAccepted += 1;

    const fate = receiptFate(pdu.destinationAddr, this.options.seed, this.options.fates);
    const wanted = pdu.registeredDelivery & 0x03;
    const receiptDue =
      fate !== null &&
      (wanted === RECEIPT_ON_ANY_OUTCOME || (wanted === RECEIPT_ON_FAILURE && fate !== 'DELIVRD'));
    const text = receiptDue || this.options.recordSubmits ? textOf(pdu, payload) : '';
    if (this.options.recordSubmits) {
      this.stats.submits.push({
        systemId,
        sourceAddr: pdu.sourceAddr,
        destinationAddr: pdu.destinationAddr,
        dataCoding: pdu.dataCoding,
        esmClass: pdu.esmClass,
        registeredDelivery: pdu.registeredDelivery,
        ...(udh === undefined ? {} : { udh }),
        messageId,
        text,
      });
    }

    const held: HeldResponse = {
      connection,
      sequenceNumber: pdu.sequenceNumber,
      messageId,
      sent: false,
    };
    if (!receiptDue) return this.respondLater(held);
    const receipt: PendingReceipt = {
      systemId,
      messageId,
      stat: fate,
      sourceAddr: pdu.destinationAddr,
      sourceAddrTon: pdu.destAddrTon,
      sourceAddrNpi: pdu.destAddrNpi,
      destinationAddr: pdu.sourceAddr,
      destAddrTon: pdu.sourceAddrTon,
      destAddrNpi: pdu.sourceAddrNpi,
      submittedAtMs: this.now(),
      text: text.slice(0, 21),
      origin: connection,
      attempts: 0,
      connection: null,
      sequenceNumber: 0,
      sentAtMs: 0,
    };
    if (this.options.receiptBeforeResponse) {
      // The response waits for the receipt's deliver_sm_resp, or one retry interval at most.
      receipt.onSettled = () => respond(held);
      this.responses.schedule(held, this.now() + this.options.receiptRetryIntervalMs);
      this.outbox.enqueue(receipt);
      return;
    }
    this.respondLater(held);
    const delayMs = this.nextDelay();
    if (delayMs === 0) this.outbox.enqueue(receipt);
    else this.receiptTimers.schedule(receipt, this.now() + delayMs);
  }

  private respondLater(held: HeldResponse): void {
    const delayMs = this.options.submitResponseDelayMs;
    if (delayMs === 0) respond(held);
    else this.responses.schedule(held, this.now() + delayMs);
  }

  private reject(connection: SmscConnection, pdu: SubmitSmPdu, commandStatus: number): void {
    connection.send({
      command: 'submit_sm_resp',
      commandStatus,
      sequenceNumber: pdu.sequenceNumber,
      messageId: '',
    });
  }
}

function respond(held: HeldResponse): void {
  if (held.sent) return;
  held.sent = true;
  held.connection.send({
    command: 'submit_sm_resp',
    commandStatus: CommandStatus.ESME_ROK,
    sequenceNumber: held.sequenceNumber,
    messageId: held.messageId,
  });
}

/** short_message, or message_payload when a client sends the text there (SMPP 3.4 §5.3.2.32). */
function payloadOf(pdu: SubmitSmPdu): Buffer {
  if (pdu.shortMessage.length > 0) return pdu.shortMessage;
  return findTlv(pdu.tlvs, TlvTag.message_payload)?.value ?? pdu.shortMessage;
}

/** The part's text without its UDH; '' for a data_coding that is not text. */
function textOf(pdu: SubmitSmPdu, payload: Buffer): string {
  try {
    return decodeMessageText(pdu.dataCoding, payload, pdu.esmClass).text;
  } catch {
    return '';
  }
}
