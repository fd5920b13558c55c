import type { Logger } from 'pino';
import type { ReceiptReport } from '../domain/delivery/delivery-store.js';
import type { CarrierPort, OutgoingPart, SubmitAnswer } from '../domain/delivery/carrier-port.js';
import { classifySubmitStatus } from './smpp/classify-submit-status.js';
import { encodeMessageText, type EncodedMessageText } from './smpp/message-text.js';
import { CommandStatus, type DeliverSmPdu } from './smpp/pdu.js';
import { receiptOf, type Receipt } from './smpp/receipt-of.js';
import type { DeliverHandler, SubmitResult } from './smpp/session-options.js';
import type { ShortMessageInput } from './smpp/short-message-fields.js';
import { PduEncodeError, ResponseTimeoutError } from './smpp/smpp-errors.js';

/** What the adapter needs of a carrier's binds (carrier-binds.ts). */
export interface SubmittingBinds {
  readonly name: string;
  submit(input: ShortMessageInput): Promise<SubmitResult>;
  /** The carrier said it is overloaded: slow down. */
  throttled(): void;
}

// SMPP 3.4 §5.2.5/§5.2.6: a sender name with letters is alphanumeric (TON 5, NPI 0); a number
// is international (TON 1, NPI 1 E.164), as every destination is.
const TON_INTERNATIONAL = 1;
const TON_ALPHANUMERIC = 5;
const NPI_E164 = 1;
/** SMPP 3.4 §5.2.17: SMSC delivery receipt requested on final outcome, success or failure. */
const RECEIPT_ON_FINAL = 0x01;
const TEXT_CACHE_SIZE = 256;

/**
 * A carrier's SMPP binds as the dispatcher's CarrierPort: a part becomes a submit_sm (text
 * encoded once per message, the concatenation reference the message id's low byte, so it
 * rotates per message), and the submit_sm_resp or the failure becomes an answer.
 */
export function smppCarrier(binds: SubmittingBinds): CarrierPort {
  const texts = new Map<number, EncodedMessageText>();
  const textOf = (part: OutgoingPart): EncodedMessageText => {
    let text = texts.get(part.messageId);
    if (!text) {
      text = encodeMessageText(part.content, part.messageId & 0xff);
      texts.set(part.messageId, text);
      if (texts.size > TEXT_CACHE_SIZE) texts.delete(texts.keys().next().value!);
    }
    return text;
  };

  return {
    name: binds.name,
    async submit(part): Promise<SubmitAnswer> {
      let input: ShortMessageInput;
      try {
        const text = textOf(part);
        const numericSender = /^\d+$/.test(part.sender);
        input = {
          sourceAddr: part.sender,
          sourceAddrTon: numericSender ? TON_INTERNATIONAL : TON_ALPHANUMERIC,
          sourceAddrNpi: numericSender ? NPI_E164 : 0,
          destinationAddr: part.msisdn,
          destAddrTon: TON_INTERNATIONAL,
          destAddrNpi: NPI_E164,
          esmClass: text.esmClass,
          dataCoding: text.dataCoding,
          registeredDelivery: RECEIPT_ON_FINAL,
          shortMessage: text.parts[part.part]!,
        };
      } catch (error) {
        return {
          kind: 'failed',
          code: 'encoding',
          error: `cannot encode the message: ${String(error)}`,
        };
      }
      try {
        const result = await binds.submit(input);
        return answerOf(binds, result);
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'CarrierDownError')
          return { kind: 'down', code: 'down', error: String(error) };
        if (error instanceof PduEncodeError)
          return { kind: 'failed', code: 'encoding', error: error.message };
        // A lost bind or no answer: the part may or may not have reached the SMSC. Sent again
        // later, it is delivered at least once.
        return {
          kind: 'retry',
          code: error instanceof ResponseTimeoutError ? 'timeout' : 'closed',
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}

function answerOf(binds: SubmittingBinds, result: SubmitResult): SubmitAnswer {
  const code = `0x${result.commandStatus.toString(16).padStart(8, '0')}`;
  const status = `command_status ${code}`;
  switch (classifySubmitStatus(result.commandStatus)) {
    case 'accepted':
      return result.messageId
        ? { kind: 'accepted', smscId: result.messageId }
        : { kind: 'retry', code: 'no-message-id', error: 'accepted without a message id' };
    case 'throttled':
      binds.throttled();
      return { kind: 'retry', code, error: `throttled (${status})` };
    case 'transient':
      return { kind: 'retry', code, error: status };
    case 'invalid':
      return { kind: 'invalid', code, error: `destination refused (${status})` };
    case 'permanent':
      return { kind: 'failed', code, error: `refused (${status})` };
  }
}

/**
 * The deliver_sm handler of a carrier's binds: a receipt is stored (`record` resolves once it
 * is durable) before its deliver_sm_resp says ESME_ROK; if storing fails, the handler throws
 * and the session answers with an error, so the SMSC sends the receipt again. A deliver_sm that
 * is not a receipt (a mobile-originated message) is acknowledged and logged: Nok does not
 * take inbound messages.
 */
export function receiptHandler(
  carrier: string,
  record: (report: ReceiptReport) => Promise<void>,
  /** Names the carrier already (a child logger). */
  logger: Logger,
): DeliverHandler {
  return async (pdu: DeliverSmPdu) => {
    const receipt = receiptOf(pdu);
    if (!receipt) {
      logger.debug({ source: pdu.sourceAddr }, 'ignored a deliver_sm that is no receipt');
      return CommandStatus.ESME_ROK;
    }
    const outcome = receipt.intermediate ? null : (OUTCOME_OF_STAT[receipt.stat] ?? 'failed');
    await record({
      carrier,
      smscId: receipt.messageId,
      outcome,
      error: outcome === 'success' ? null : errorOf(receipt),
    });
    return CommandStatus.ESME_ROK;
  };
}

/** The stat and, when the text says it, the SMSC's error code: `UNDELIV err:034`. */
function errorOf(receipt: Receipt): string {
  const err = receipt.text?.err;
  return `${receipt.stat}${err ? ` err:${err}` : ''}`;
}

const OUTCOME_OF_STAT: Record<string, ReceiptReport['outcome']> = {
  DELIVRD: 'success',
  EXPIRED: 'expired',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  DELETED: 'failed',
  UNKNOWN: 'failed',
  ENROUTE: null,
  ACCEPTD: null,
};
