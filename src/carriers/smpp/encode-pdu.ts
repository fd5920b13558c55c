// Encodes PDUs as SMPP 3.4 §3.2 lays them out: a 16-octet header (command_length, command_id,
// command_status, sequence_number, each a 4-octet big-endian integer), then the mandatory fields
// in the order of §4, then TLVs. The length is computed first and the fields are written straight
// into one buffer (or into a caller's buffer at an offset): no intermediate object per field.
import {
  CommandId,
  HEADER_BYTES,
  MAX_SHORT_MESSAGE_BYTES,
  MaxCString,
  type Pdu,
  type ShortMessageFields,
  type Tlv,
} from './pdu.js';
import { PduEncodeError } from './smpp-errors.js';

/** Octets `pdu` takes on the wire; throws PduEncodeError for a field longer than SMPP 3.4 allows. */
export function encodedLength(pdu: Pdu): number {
  switch (pdu.command) {
    case 'bind_transmitter':
    case 'bind_receiver':
    case 'bind_transceiver':
      return (
        HEADER_BYTES +
        cStringSize(pdu.systemId, MaxCString.systemId, 'system_id') +
        cStringSize(pdu.password, MaxCString.password, 'password') +
        cStringSize(pdu.systemType, MaxCString.systemType, 'system_type') +
        3 +
        cStringSize(pdu.addressRange, MaxCString.addressRange, 'address_range')
      );
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      // SMPP 3.4 §4.1.2: the body is not returned when command_status is non-zero.
      if (pdu.commandStatus !== 0) return HEADER_BYTES;
      return (
        HEADER_BYTES +
        cStringSize(pdu.systemId, MaxCString.systemId, 'system_id') +
        tlvsSize(pdu.tlvs)
      );
    case 'submit_sm':
    case 'deliver_sm':
      return HEADER_BYTES + shortMessageFieldsSize(pdu);
    case 'submit_sm_resp':
      // SMPP 3.4 §4.4.2: the body is not returned when command_status is non-zero.
      if (pdu.commandStatus !== 0) return HEADER_BYTES;
      return HEADER_BYTES + cStringSize(pdu.messageId, MaxCString.messageId, 'message_id');
    case 'deliver_sm_resp':
      // SMPP 3.4 §4.6.2: message_id is unused and set to NULL, whatever the status.
      return HEADER_BYTES + cStringSize(pdu.messageId, MaxCString.messageId, 'message_id');
    case 'unknown':
      return HEADER_BYTES + pdu.body.length;
    default:
      return HEADER_BYTES;
  }
}

/** Writes `pdu` into `target` at `offset`; returns the offset just past it. */
export function writePdu(pdu: Pdu, target: Buffer, offset: number): number {
  const length = encodedLength(pdu);
  if (offset + length > target.length)
    throw new PduEncodeError(
      `${pdu.command} needs ${length} octets at ${offset}, buffer too short`,
    );
  return writeEncoded(pdu, length, target, offset);
}

/** One PDU in a buffer of its own length. */
export function encodePdu(pdu: Pdu): Buffer {
  const length = encodedLength(pdu);
  const buffer = Buffer.allocUnsafe(length);
  writeEncoded(pdu, length, buffer, 0);
  return buffer;
}

/** Several PDUs back to back in one buffer, for one socket write. */
export function encodePdus(pdus: readonly Pdu[]): Buffer {
  const lengths = pdus.map(encodedLength);
  let total = 0;
  for (const length of lengths) total += length;
  const buffer = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < pdus.length; i++)
    at = writeEncoded(pdus[i] as Pdu, lengths[i] as number, buffer, at);
  return buffer;
}

// `length` is encodedLength(pdu), which has validated every field already.
function writeEncoded(pdu: Pdu, length: number, target: Buffer, offset: number): number {
  let at = target.writeUInt32BE(length, offset);
  at = target.writeUInt32BE(pdu.command === 'unknown' ? pdu.commandId : CommandId[pdu.command], at);
  at = target.writeUInt32BE(pdu.commandStatus >>> 0, at);
  at = target.writeUInt32BE(pdu.sequenceNumber >>> 0, at);
  switch (pdu.command) {
    case 'bind_transmitter':
    case 'bind_receiver':
    case 'bind_transceiver':
      at = writeCString(pdu.systemId, 'system_id', target, at);
      at = writeCString(pdu.password, 'password', target, at);
      at = writeCString(pdu.systemType, 'system_type', target, at);
      target[at++] = pdu.interfaceVersion;
      target[at++] = pdu.addrTon;
      target[at++] = pdu.addrNpi;
      return writeCString(pdu.addressRange, 'address_range', target, at);
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      if (pdu.commandStatus !== 0) return at;
      return writeTlvs(pdu.tlvs, target, writeCString(pdu.systemId, 'system_id', target, at));
    case 'submit_sm':
    case 'deliver_sm':
      return writeShortMessageFields(pdu, target, at);
    case 'submit_sm_resp':
      if (pdu.commandStatus !== 0) return at;
      return writeCString(pdu.messageId, 'message_id', target, at);
    case 'deliver_sm_resp':
      return writeCString(pdu.messageId, 'message_id', target, at);
    case 'unknown':
      return at + pdu.body.copy(target, at);
    default:
      return at;
  }
}

function shortMessageFieldsSize(fields: ShortMessageFields): number {
  if (fields.shortMessage.length > MAX_SHORT_MESSAGE_BYTES)
    throw new PduEncodeError(
      `short_message is ${fields.shortMessage.length} octets, SMPP 3.4 allows ${MAX_SHORT_MESSAGE_BYTES}: ` +
        'split the content into parts or send it in message_payload',
    );
  return (
    cStringSize(fields.serviceType, MaxCString.serviceType, 'service_type') +
    2 +
    cStringSize(fields.sourceAddr, MaxCString.address, 'source_addr') +
    2 +
    cStringSize(fields.destinationAddr, MaxCString.address, 'destination_addr') +
    3 +
    cStringSize(fields.scheduleDeliveryTime, MaxCString.time, 'schedule_delivery_time') +
    cStringSize(fields.validityPeriod, MaxCString.time, 'validity_period') +
    5 +
    fields.shortMessage.length +
    tlvsSize(fields.tlvs)
  );
}

// Field order of SMPP 3.4 §4.4.1 (submit_sm) and §4.6.1 (deliver_sm), which share it.
function writeShortMessageFields(
  fields: ShortMessageFields,
  target: Buffer,
  offset: number,
): number {
  let at = writeCString(fields.serviceType, 'service_type', target, offset);
  target[at++] = fields.sourceAddrTon;
  target[at++] = fields.sourceAddrNpi;
  at = writeCString(fields.sourceAddr, 'source_addr', target, at);
  target[at++] = fields.destAddrTon;
  target[at++] = fields.destAddrNpi;
  at = writeCString(fields.destinationAddr, 'destination_addr', target, at);
  target[at++] = fields.esmClass;
  target[at++] = fields.protocolId;
  target[at++] = fields.priorityFlag;
  at = writeCString(fields.scheduleDeliveryTime, 'schedule_delivery_time', target, at);
  at = writeCString(fields.validityPeriod, 'validity_period', target, at);
  target[at++] = fields.registeredDelivery;
  target[at++] = fields.replaceIfPresentFlag;
  target[at++] = fields.dataCoding;
  target[at++] = fields.smDefaultMsgId;
  target[at++] = fields.shortMessage.length;
  at += fields.shortMessage.copy(target, at);
  return writeTlvs(fields.tlvs, target, at);
}

function cStringSize(value: string, max: number, field: string): number {
  if (value.length >= max)
    throw new PduEncodeError(
      `${field} "${value}" is longer than the ${max - 1} characters allowed`,
    );
  return value.length + 1;
}

// C-Octet Strings are ASCII (SMPP 3.4 §3.1); a short loop beats Buffer#write for fields this size.
function writeCString(value: string, field: string, target: Buffer, offset: number): number {
  let at = offset;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0x7f || code === 0)
      throw new PduEncodeError(`${field} "${value}" has a character that is not ASCII`);
    target[at++] = code;
  }
  target[at++] = 0;
  return at;
}

function tlvsSize(tlvs: readonly Tlv[]): number {
  let size = 0;
  for (const tlv of tlvs) {
    if (tlv.value.length > 0xffff)
      throw new PduEncodeError(`TLV 0x${tlv.tag.toString(16)} is longer than 65,535 octets`);
    size += 4 + tlv.value.length;
  }
  return size;
}

function writeTlvs(tlvs: readonly Tlv[], target: Buffer, offset: number): number {
  let at = offset;
  for (const tlv of tlvs) {
    at = target.writeUInt16BE(tlv.tag, at);
    at = target.writeUInt16BE(tlv.value.length, at);
    at += tlv.value.copy(target, at);
  }
  return at;
}
