// Building and reading TLV values (SMPP 3.4 §5.3): the codec keeps every TLV as raw octets, and
// these give the typed view of the few that Nok reads or writes.
import type { Tlv } from './pdu.js';

/** The first TLV with `tag`, or undefined. */
export function findTlv(tlvs: readonly Tlv[], tag: number): Tlv | undefined {
  for (const tlv of tlvs) if (tlv.tag === tag) return tlv;
  return undefined;
}

/** A C-Octet String TLV, NUL included (e.g. receipted_message_id). */
export function cStringTlv(tag: number, value: string): Tlv {
  const octets = Buffer.alloc(value.length + 1);
  octets.write(value, 0, 'latin1');
  return { tag, value: octets };
}

/** An Integer TLV of 1, 2 or 4 octets, big-endian (e.g. message_state is 1, sar_msg_ref_num 2). */
export function integerTlv(tag: number, value: number, size: 1 | 2 | 4): Tlv {
  const octets = Buffer.alloc(size);
  octets.writeUIntBE(value, 0, size);
  return { tag, value: octets };
}

/** A TLV's C-Octet String value, up to its NUL (or its end if a peer left the NUL out). */
export function readCStringTlv(tlv: Tlv): string {
  const nul = tlv.value.indexOf(0);
  return tlv.value.toString('latin1', 0, nul === -1 ? tlv.value.length : nul);
}

/** A TLV's Integer value, big-endian over its 1 to 4 octets; undefined for another length. */
export function readIntegerTlv(tlv: Tlv): number | undefined {
  const size = tlv.value.length;
  return size >= 1 && size <= 4 ? tlv.value.readUIntBE(0, size) : undefined;
}
