// Decodes one framed PDU (SMPP 3.4 §3.2, fields in the order of §4). Requests are checked
// strictly: a body that does not parse throws PduDecodeError with the command_status to answer.
// Responses are read leniently (a missing body or NUL gives an empty or unterminated string, a
// broken TLV tail is ignored): nothing can be answered to a response, and the request waiting
// for it is better served by its command_status than by nothing.
import {
  CommandId,
  CommandStatus,
  HEADER_BYTES,
  MaxCString,
  type Pdu,
  type ShortMessageFields,
  type Tlv,
  isResponseCommandId,
} from './pdu.js';
import { PduDecodeError, PduFramingError } from './smpp-errors.js';

/**
 * Decodes the PDU in `buffer[start, end)`, whose command_length the caller has framed (see
 * PduReader). short_message and TLV values are views into `buffer`, not copies: copy one to keep
 * it beyond the buffer's life.
 */
export function decodePdu(buffer: Buffer, start = 0, end = buffer.length): Pdu {
  if (end - start < HEADER_BYTES || start < 0 || end > buffer.length)
    throw new PduFramingError(end - start, `a PDU needs at least ${HEADER_BYTES} octets`);
  const commandId = buffer.readUInt32BE(start + 4);
  const commandStatus = buffer.readUInt32BE(start + 8);
  const sequenceNumber = buffer.readUInt32BE(start + 12);
  const body = new BodyCursor(buffer, start + HEADER_BYTES, end, commandId, sequenceNumber);
  switch (commandId) {
    case CommandId.bind_transmitter:
    case CommandId.bind_receiver:
    case CommandId.bind_transceiver:
      return {
        command:
          commandId === CommandId.bind_transmitter
            ? 'bind_transmitter'
            : commandId === CommandId.bind_receiver
              ? 'bind_receiver'
              : 'bind_transceiver',
        commandStatus,
        sequenceNumber,
        systemId: body.cString(MaxCString.systemId, CommandStatus.ESME_RINVSYSID, 'system_id'),
        password: body.cString(MaxCString.password, CommandStatus.ESME_RINVPASWD, 'password'),
        systemType: body.cString(
          MaxCString.systemType,
          CommandStatus.ESME_RINVSYSTYP,
          'system_type',
        ),
        interfaceVersion: body.octet('interface_version'),
        addrTon: body.octet('addr_ton'),
        addrNpi: body.octet('addr_npi'),
        addressRange: body.cString(
          MaxCString.addressRange,
          CommandStatus.ESME_RSYSERR,
          'address_range',
        ),
      };
    case CommandId.bind_transmitter_resp:
    case CommandId.bind_receiver_resp:
    case CommandId.bind_transceiver_resp:
      return {
        command:
          commandId === CommandId.bind_transmitter_resp
            ? 'bind_transmitter_resp'
            : commandId === CommandId.bind_receiver_resp
              ? 'bind_receiver_resp'
              : 'bind_transceiver_resp',
        commandStatus,
        sequenceNumber,
        systemId: body.lenientCString(),
        tlvs: body.lenientTlvs(),
      };
    case CommandId.submit_sm:
      return shortMessagePdu('submit_sm', commandStatus, sequenceNumber, body);
    case CommandId.deliver_sm:
      return shortMessagePdu('deliver_sm', commandStatus, sequenceNumber, body);
    case CommandId.submit_sm_resp:
    case CommandId.deliver_sm_resp:
      return {
        command: commandId === CommandId.submit_sm_resp ? 'submit_sm_resp' : 'deliver_sm_resp',
        commandStatus,
        sequenceNumber,
        messageId: body.lenientCString(),
      };
    case CommandId.unbind:
      return { command: 'unbind', commandStatus, sequenceNumber };
    case CommandId.unbind_resp:
      return { command: 'unbind_resp', commandStatus, sequenceNumber };
    case CommandId.enquire_link:
      return { command: 'enquire_link', commandStatus, sequenceNumber };
    case CommandId.enquire_link_resp:
      return { command: 'enquire_link_resp', commandStatus, sequenceNumber };
    case CommandId.generic_nack:
      return { command: 'generic_nack', commandStatus, sequenceNumber };
    default:
      return {
        command: 'unknown',
        commandId,
        commandStatus,
        sequenceNumber,
        body: buffer.subarray(start + HEADER_BYTES, end),
      };
  }
}

// SMPP 3.4 §4.4.1 (submit_sm) and §4.6.1 (deliver_sm) share the field order. The PDU is built as
// one object literal: decoding is on the hot path of every receipt.
function shortMessagePdu<C extends 'submit_sm' | 'deliver_sm'>(
  command: C,
  commandStatus: number,
  sequenceNumber: number,
  body: BodyCursor,
): ShortMessageFields & { command: C; commandStatus: number; sequenceNumber: number } {
  const serviceType = body.cString(
    MaxCString.serviceType,
    CommandStatus.ESME_RINVSERTYP,
    'service_type',
  );
  const sourceAddrTon = body.octet('source_addr_ton');
  const sourceAddrNpi = body.octet('source_addr_npi');
  const sourceAddr = body.cString(MaxCString.address, CommandStatus.ESME_RINVSRCADR, 'source_addr');
  const destAddrTon = body.octet('dest_addr_ton');
  const destAddrNpi = body.octet('dest_addr_npi');
  const destinationAddr = body.cString(
    MaxCString.address,
    CommandStatus.ESME_RINVDSTADR,
    'destination_addr',
  );
  const esmClass = body.octet('esm_class');
  const protocolId = body.octet('protocol_id');
  const priorityFlag = body.octet('priority_flag');
  const scheduleDeliveryTime = body.cString(
    MaxCString.time,
    CommandStatus.ESME_RINVSCHED,
    'schedule_delivery_time',
  );
  const validityPeriod = body.cString(
    MaxCString.time,
    CommandStatus.ESME_RINVEXPIRY,
    'validity_period',
  );
  const registeredDelivery = body.octet('registered_delivery');
  const replaceIfPresentFlag = body.octet('replace_if_present_flag');
  const dataCoding = body.octet('data_coding');
  const smDefaultMsgId = body.octet('sm_default_msg_id');
  const smLength = body.octet('sm_length');
  const shortMessage = body.octets(smLength, CommandStatus.ESME_RINVMSGLEN, 'short_message');
  return {
    command,
    commandStatus,
    sequenceNumber,
    serviceType,
    sourceAddrTon,
    sourceAddrNpi,
    sourceAddr,
    destAddrTon,
    destAddrNpi,
    destinationAddr,
    esmClass,
    protocolId,
    priorityFlag,
    scheduleDeliveryTime,
    validityPeriod,
    registeredDelivery,
    replaceIfPresentFlag,
    dataCoding,
    smDefaultMsgId,
    shortMessage,
    tlvs: body.tlvs(),
  };
}

class BodyCursor {
  constructor(
    private readonly buffer: Buffer,
    private at: number,
    private readonly end: number,
    private readonly commandId: number,
    private readonly sequenceNumber: number,
  ) {}

  octet(field: string): number {
    if (this.at >= this.end)
      throw this.error(CommandStatus.ESME_RINVCMDLEN, `body ends before ${field}`);
    return this.buffer[this.at++] as number;
  }

  octets(length: number, status: number, field: string): Buffer {
    if (this.at + length > this.end) throw this.error(status, `${field} runs past command_length`);
    const value = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }

  /** A C-Octet String of at most `max` octets, NUL included (SMPP 3.4 §3.1). */
  cString(max: number, status: number, field: string): string {
    const from = this.at;
    const limit = Math.min(this.end, from + max);
    for (let i = from; i < limit; i++) {
      if (this.buffer[i] === 0) {
        this.at = i + 1;
        return i === from ? '' : this.buffer.toString('latin1', from, i);
      }
    }
    if (limit === this.end && limit - from < max)
      throw this.error(CommandStatus.ESME_RINVCMDLEN, `body ends inside ${field}`);
    throw this.error(status, `${field} is longer than ${max - 1} characters`);
  }

  /** Up to the NUL, or to the end of the body if there is none; '' for an absent body. */
  lenientCString(): string {
    let to = this.at;
    while (to < this.end && this.buffer[to] !== 0) to++;
    const value = to > this.at ? this.buffer.toString('latin1', this.at, to) : '';
    this.at = Math.min(this.end, to + 1);
    return value;
  }

  tlvs(): Tlv[] {
    const tlvs: Tlv[] = [];
    while (this.at < this.end) {
      if (this.end - this.at < 4)
        throw this.error(CommandStatus.ESME_RINVOPTPARSTREAM, 'truncated TLV header');
      const tag = this.buffer.readUInt16BE(this.at);
      const length = this.buffer.readUInt16BE(this.at + 2);
      this.at += 4;
      tlvs.push({
        tag,
        value: this.octets(length, CommandStatus.ESME_RINVOPTPARSTREAM, 'TLV value'),
      });
    }
    return tlvs;
  }

  lenientTlvs(): Tlv[] {
    try {
      return this.tlvs();
    } catch {
      return [];
    }
  }

  private error(status: number, reason: string): PduDecodeError {
    // A response cannot be answered, so there is no status to suggest.
    const answer = isResponseCommandId(this.commandId) ? CommandStatus.ESME_RSYSERR : status;
    return new PduDecodeError(this.commandId, this.sequenceNumber, answer, reason);
  }
}
