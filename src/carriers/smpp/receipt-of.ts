// A deliver_sm as a receipt. SMPP 3.4 §5.2.12: esm_class bits 5-2 give the message type, 0001
// (0x04) for an SMSC delivery receipt and 1000 (0x20) for an intermediate delivery notification.
// The TLVs receipted_message_id and message_state (§5.3.2) are exact where a carrier sends them;
// the Appendix B text is the fallback that every SMSC writes.
import { type DeliverSmPdu, MessageState, TlvTag } from './pdu.js';
import { type ReceiptStat, type ReceiptText, parseReceiptText } from './parse-receipt-text.js';
import { findTlv, readCStringTlv, readIntegerTlv } from './tlv.js';

const MESSAGE_TYPE_MASK = 0x3c;
const SMSC_DELIVERY_RECEIPT = 0x04;
const INTERMEDIATE_NOTIFICATION = 0x20;

const STAT_OF_STATE: Record<number, ReceiptStat> = {
  [MessageState.ENROUTE]: 'ENROUTE',
  [MessageState.DELIVERED]: 'DELIVRD',
  [MessageState.EXPIRED]: 'EXPIRED',
  [MessageState.DELETED]: 'DELETED',
  [MessageState.UNDELIVERABLE]: 'UNDELIV',
  [MessageState.ACCEPTED]: 'ACCEPTD',
  [MessageState.UNKNOWN]: 'UNKNOWN',
  [MessageState.REJECTED]: 'REJECTD',
};

export interface Receipt {
  /** The SMSC message id the receipt is about: receipted_message_id, else the text's id. */
  readonly messageId: string;
  /** From message_state, else from the text's stat. */
  readonly stat: ReceiptStat;
  /** esm_class said intermediate delivery notification: a state on the way, not the last word. */
  readonly intermediate: boolean;
  /** network_error_code (§5.3.2): network type (1 GSM, 2 ANSI-136, …) and its error code. */
  readonly networkError?: { readonly networkType: number; readonly errorCode: number };
  /** The parsed text, when the short_message holds one (its err, dates, …). */
  readonly text: ReceiptText | null;
}

/** receipted_message_id, when the deliver_sm carries it. */
export function receiptedMessageIdOf(pdu: DeliverSmPdu): string | undefined {
  const tlv = findTlv(pdu.tlvs, TlvTag.receipted_message_id);
  const id = tlv && readCStringTlv(tlv);
  return id ? id : undefined;
}

/** message_state (SMPP 3.4 §5.2.28), when the deliver_sm carries it. */
export function messageStateOf(pdu: DeliverSmPdu): number | undefined {
  const tlv = findTlv(pdu.tlvs, TlvTag.message_state);
  return tlv && readIntegerTlv(tlv);
}

/** The receipt this deliver_sm carries, or null when it is not one (or says nothing usable). */
export function receiptOf(pdu: DeliverSmPdu): Receipt | null {
  const messageType = pdu.esmClass & MESSAGE_TYPE_MASK;
  if (messageType !== SMSC_DELIVERY_RECEIPT && messageType !== INTERMEDIATE_NOTIFICATION)
    return null;
  // The text is parsed only when the TLVs leave something out, or when asked for (its err):
  // on the receipt path of every message, the regular expressions are most of the cost.
  let parsed: ReceiptText | null | undefined;
  const textOf = () =>
    parsed === undefined ? (parsed = parseReceiptText(pdu.shortMessage)) : parsed;
  const tlvId = receiptedMessageIdOf(pdu);
  const state = messageStateOf(pdu);
  const tlvStat = state === undefined ? undefined : STAT_OF_STATE[state];
  const messageId = tlvId ?? textOf()?.id;
  const stat = tlvStat ?? textOf()?.stat;
  if (messageId === undefined || stat === undefined) return null;
  const networkErrorTlv = findTlv(pdu.tlvs, TlvTag.network_error_code);
  return {
    messageId,
    stat,
    intermediate: messageType === INTERMEDIATE_NOTIFICATION,
    networkError:
      networkErrorTlv?.value.length === 3
        ? {
            networkType: networkErrorTlv.value[0] as number,
            errorCode: networkErrorTlv.value.readUInt16BE(1),
          }
        : undefined,
    get text() {
      return textOf();
    },
  };
}
