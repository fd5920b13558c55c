import { splitParts } from '../../domain/messages/message-parts.js';
import { decodeGsm, encodeGsm, isGsmEncodable } from './gsm-alphabet.js';

/** SMPP 3.4 §5.2.19 data_coding values Nok sends or understands. */
export const DATA_CODING_DEFAULT = 0; // SMSC default alphabet: GSM 03.38, one septet per octet
export const DATA_CODING_IA5 = 1; // IA5 (CCITT T.50), i.e. ASCII
export const DATA_CODING_LATIN1 = 3;
export const DATA_CODING_UCS2 = 8;

/** SMPP 3.4 §5.2.12: esm_class bit 6, "UDH Indicator" — short_message starts with a UDH. */
export const ESM_CLASS_UDHI = 0x40;

/** 3GPP TS 23.040 §9.2.3.24.1: information element 0x00, concatenated SMS with an 8-bit reference. */
const IEI_CONCAT_8BIT = 0x00;
/** 3GPP TS 23.040 §9.2.3.24.8: information element 0x08, the same with a 16-bit reference. */
const IEI_CONCAT_16BIT = 0x08;
const CONCAT_UDH_OCTETS = 6;

export interface EncodedMessageText {
  readonly dataCoding: 0 | 8;
  readonly esmClass: number;
  /** One short_message payload per submit_sm, in order, UDH included when there are several. */
  readonly parts: Buffer[];
}

export interface ConcatenationHeader {
  readonly reference: number;
  readonly total: number;
  readonly seq: number;
}

export interface DecodedMessageText {
  readonly text: string;
  readonly udh?: ConcatenationHeader;
}

/**
 * The short_message payloads that carry `content`. The parts are exactly those of
 * {@link splitParts}, so the parts charged are the parts sent: at most 70 UTF-16 units go as one
 * part without UDH; longer content goes in parts of 67 units, each behind the 6-octet
 * concatenation UDH. Either way every payload fits 140 octets: 70 × 2, or 6 + 67 × 2 (a GSM
 * extension character is two octets, like a UCS-2 unit).
 *
 * Content entirely in the GSM 03.38 default alphabet (and its extension table) goes as
 * data_coding 0, unpacked septets as SMPP carries them; anything else as UCS-2 big-endian
 * (data_coding 8), where a surrogate pair is simply two units and splitParts keeps it whole.
 */
export function encodeMessageText(content: string, referenceNumber: number): EncodedMessageText {
  if (!Number.isInteger(referenceNumber) || referenceNumber < 0 || referenceNumber > 255) {
    throw new RangeError(`referenceNumber must be an integer 0-255, got ${referenceNumber}`);
  }
  const dataCoding = isGsmEncodable(content) ? DATA_CODING_DEFAULT : DATA_CODING_UCS2;
  const encode = dataCoding === DATA_CODING_DEFAULT ? encodeGsm : encodeUcs2;
  const texts = splitParts(content);
  if (texts.length === 1) return { dataCoding, esmClass: 0, parts: [encode(texts[0]!)] };
  if (texts.length > 255) {
    throw new RangeError(`content needs ${texts.length} parts; a concatenated SMS has at most 255`);
  }
  const parts = texts.map((text, index) => {
    const body = encode(text);
    const payload = Buffer.allocUnsafe(CONCAT_UDH_OCTETS + body.length);
    payload[0] = 0x05; // UDH length, not counting itself
    payload[1] = IEI_CONCAT_8BIT;
    payload[2] = 0x03; // information element length
    payload[3] = referenceNumber;
    payload[4] = texts.length;
    payload[5] = index + 1;
    body.copy(payload, CONCAT_UDH_OCTETS);
    return payload;
  });
  return { dataCoding, esmClass: ESM_CLASS_UDHI, parts };
}

/**
 * The text of one short_message, and its concatenation header when esm_class has UDHI and the
 * UDH holds one (8- or 16-bit reference). Understands data_coding 0 (GSM 03.38 unpacked),
 * 1 (ASCII), 3 (Latin-1) and 8 (UCS-2); any other throws a RangeError.
 */
export function decodeMessageText(
  dataCoding: number,
  payload: Buffer,
  esmClass: number,
): DecodedMessageText {
  let body = payload;
  let udh: ConcatenationHeader | undefined;
  if ((esmClass & ESM_CLASS_UDHI) !== 0 && payload.length > 0) {
    const headerEnd = 1 + payload[0]!;
    if (headerEnd > payload.length) throw new RangeError('the UDH is longer than the payload');
    udh = findConcatenation(payload.subarray(1, headerEnd));
    body = payload.subarray(headerEnd);
  }
  const text = decodeBody(dataCoding, body);
  return udh === undefined ? { text } : { text, udh };
}

function decodeBody(dataCoding: number, body: Buffer): string {
  switch (dataCoding) {
    case DATA_CODING_DEFAULT:
      return decodeGsm(body);
    case DATA_CODING_IA5:
      return body.toString('ascii');
    case DATA_CODING_LATIN1:
      return body.toString('latin1');
    case DATA_CODING_UCS2:
      return decodeUcs2(body);
    default:
      throw new RangeError(`data_coding ${dataCoding} is not text Nok can decode`);
  }
}

/**
 * The concatenation header of a short_message, without decoding its text: undefined when
 * esm_class has no UDHI, the UDH is malformed, or it holds no concatenation element.
 */
export function readConcatenation(
  payload: Buffer,
  esmClass: number,
): ConcatenationHeader | undefined {
  if ((esmClass & ESM_CLASS_UDHI) === 0 || payload.length === 0) return undefined;
  const headerEnd = 1 + payload[0]!;
  if (headerEnd > payload.length) return undefined;
  return findConcatenation(payload.subarray(1, headerEnd));
}

/** Walks the UDH's information elements (3GPP TS 23.040 §9.2.3.24) for a concatenation one. */
function findConcatenation(header: Buffer): ConcatenationHeader | undefined {
  let at = 0;
  while (at + 2 <= header.length) {
    const id = header[at]!;
    const length = header[at + 1]!;
    const data = header.subarray(at + 2, at + 2 + length);
    if (id === IEI_CONCAT_8BIT && data.length === 3) {
      return { reference: data[0]!, total: data[1]!, seq: data[2]! };
    }
    if (id === IEI_CONCAT_16BIT && data.length === 4) {
      return { reference: data.readUInt16BE(0), total: data[2]!, seq: data[3]! };
    }
    at += 2 + length;
  }
  return undefined;
}

function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

function decodeUcs2(body: Buffer): string {
  // A trailing odd octet is not a unit; drop it rather than fail on a sloppy peer.
  const even = Buffer.from(body.subarray(0, body.length & ~1));
  return even.swap16().toString('utf16le');
}
