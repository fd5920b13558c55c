import { MessageState } from '../carriers/smpp/pdu.js';
import type { SimulatedStat } from './receipt-fate.js';

/** SMPP 3.4 §5.2.28 message_state of each stat, sent in the message_state TLV (0x0427). */
export const MESSAGE_STATE: Readonly<Record<SimulatedStat, number>> = {
  DELIVRD: MessageState.DELIVERED,
  EXPIRED: MessageState.EXPIRED,
  UNDELIV: MessageState.UNDELIVERABLE,
  REJECTD: MessageState.REJECTED,
};

/** Network error codes in the receipt's `err:` field; SMPP leaves them to the SMSC. */
const ERROR_CODE: Readonly<Record<SimulatedStat, string>> = {
  DELIVRD: '000',
  UNDELIV: '001',
  EXPIRED: '002',
  REJECTD: '003',
};

export interface ReceiptTextFields {
  readonly messageId: string;
  readonly stat: SimulatedStat;
  readonly submittedAtMs: number;
  readonly doneAtMs: number;
  /** The submitted part's text; its first 20 characters are quoted. */
  readonly text: string;
}

/**
 * The receipt's short_message, sent as data_coding 0, in the de facto format of SMPP 3.4 Appendix B:
 * `id:IIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:…`.
 * Dates are UTC; every receipt is for one part, so sub is 001 and dlvrd 001 only when delivered.
 * The quoted text keeps only characters that GSM 03.38 and ASCII write alike, others become `?`,
 * so a client reading the receipt either way (both are common) sees the same text.
 */
export function receiptText(fields: ReceiptTextFields): string {
  const delivered = fields.stat === 'DELIVRD' ? '001' : '000';
  return (
    `id:${fields.messageId} sub:001 dlvrd:${delivered}` +
    ` submit date:${smppDate(fields.submittedAtMs)} done date:${smppDate(fields.doneAtMs)}` +
    ` stat:${fields.stat} err:${ERROR_CODE[fields.stat]} text:${sameInGsmAndAscii(firstCharacters(fields.text, 20))}`
  );
}

/** YYMMDDhhmm in UTC. */
export function smppDate(ms: number): string {
  const d = new Date(ms);
  return (
    two(d.getUTCFullYear() % 100) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes())
  );
}

function two(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** The first `count` UTF-16 units, one fewer rather than half a surrogate pair. */
function firstCharacters(text: string, count: number): string {
  if (text.length <= count) return text;
  const last = text.charCodeAt(count - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? count - 1 : count);
}

/** Letters, digits, space and the punctuation with one code in GSM 03.38 and ASCII. */
const PORTABLE = /[^A-Za-z0-9 !"#%&'()*+,\-./:;<=>?]/g;

function sameInGsmAndAscii(text: string): string {
  return text.replace(PORTABLE, '?');
}
