/**
 * The GSM 03.38 (3GPP TS 23.038 §6.2.1) default alphabet, unpacked: one septet value per octet,
 * which is how SMPP carries data_coding 0. Index = septet value.
 */
const DEFAULT_ALPHABET =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The escape septet that introduces a character of the extension table. */
export const GSM_ESCAPE = 0x1b;

/**
 * TS 23.038 §6.2.1.1 extension table, as sent after {@link GSM_ESCAPE}. Form feed (0x0A) is in
 * that table too, but only decoded: a page break in an SMS is never what a sender meant.
 */
const EXTENSION: ReadonlyArray<readonly [string, number]> = [
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

/** UTF-16 unit → septet, or ESCAPE << 8 | code for an extension character. */
const ENCODE = new Map<number, number>();
for (let septet = 0; septet < DEFAULT_ALPHABET.length; septet++) {
  if (septet !== GSM_ESCAPE) ENCODE.set(DEFAULT_ALPHABET.charCodeAt(septet), septet);
}
for (const [char, code] of EXTENSION) ENCODE.set(char.charCodeAt(0), (GSM_ESCAPE << 8) | code);

const DECODE_EXTENSION = new Map<number, string>(EXTENSION.map(([char, code]) => [code, char]));
DECODE_EXTENSION.set(0x0a, '\f');
/** TS 23.038 §6.2.1 note: an escape not understood is shown as a space. */
const DECODE = [...DEFAULT_ALPHABET].map((char, septet) => (septet === GSM_ESCAPE ? ' ' : char));

/** True when every character of `text` has a GSM 03.38 default or extension code. */
export function isGsmEncodable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!ENCODE.has(text.charCodeAt(i))) return false;
  }
  return true;
}

/** Unpacked septets for `text`, which must pass {@link isGsmEncodable}. */
export function encodeGsm(text: string): Buffer {
  const out = Buffer.allocUnsafe(text.length * 2);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = ENCODE.get(text.charCodeAt(i));
    if (code === undefined) {
      throw new RangeError(`character U+${hex4(text.charCodeAt(i))} is not in the GSM alphabet`);
    }
    if (code > 0xff) out[length++] = GSM_ESCAPE;
    out[length++] = code & 0xff;
  }
  return out.subarray(0, length);
}

/**
 * Text from unpacked septets. An escape before a code the extension table lacks shows the
 * default-alphabet character instead, as TS 23.038 §6.2.1.1 tells a receiver to; a lone escape
 * reads as a space, and an octet above 0x7F, which is no septet, as U+FFFD.
 */
export function decodeGsm(septets: Uint8Array): string {
  let text = '';
  for (let i = 0; i < septets.length; i++) {
    let septet = septets[i]!;
    if (septet === GSM_ESCAPE && i + 1 < septets.length) {
      septet = septets[++i]!;
      const extension = DECODE_EXTENSION.get(septet);
      if (extension !== undefined) {
        text += extension;
        continue;
      }
    }
    text += DECODE[septet] ?? '\ufffd';
  }
  return text;
}

function hex4(unit: number): string {
  return unit.toString(16).toUpperCase().padStart(4, '0');
}
