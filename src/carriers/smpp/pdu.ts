// SMPP 3.4 PDU shapes and numbers: command ids (§5.1.2), command_status codes (§5.1.3, Table
// 5-2), the TLV tags Nok reads or writes (§5.3.2), and the largest value of each C-Octet String
// field, NUL included (the "Var. max" sizes of §4).

/** command_id of each PDU Nok speaks (SMPP 3.4 §5.1.2). A response is its request | 0x80000000. */
export const CommandId = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
} as const;

export type CommandName = keyof typeof CommandId;

/** Set on command_id for every response PDU (SMPP 3.4 §5.1.2). */
export const RESPONSE_BIT = 0x80000000;

/** command_status codes (SMPP 3.4 §5.1.3, Table 5-2). */
export const CommandStatus = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RINVPRTFLG: 0x06,
  ESME_RINVREGDLVFLG: 0x07,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVSERTYP: 0x15,
  ESME_RINVNUMDESTS: 0x33,
  ESME_RINVDLNAME: 0x34,
  ESME_RINVDESTFLAG: 0x40,
  ESME_RINVSUBREP: 0x42,
  ESME_RINVESMCLASS: 0x43,
  ESME_RCNTSUBDL: 0x44,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RINVSYSTYP: 0x53,
  ESME_RINVREPFLAG: 0x54,
  ESME_RINVNUMMSGS: 0x55,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RINVDFTMSGID: 0x63,
  ESME_RX_T_APPN: 0x64,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVOPTPARSTREAM: 0xc0,
  ESME_ROPTPARNOTALLWD: 0xc1,
  ESME_RINVPARLEN: 0xc2,
  ESME_RMISSINGOPTPARAM: 0xc3,
  ESME_RINVOPTPARAMVAL: 0xc4,
  ESME_RDELIVERYFAILURE: 0xfe,
  ESME_RUNKNOWNERR: 0xff,
  // 0x100-0x3FF are SMSC vendor codes in 3.4; SMPP 5.0 §4.7.6 names this one, and carriers use it.
  ESME_RINVDCS: 0x104,
} as const;

/** TLV tags (SMPP 3.4 §5.3.2). */
export const TlvTag = {
  payload_type: 0x0019,
  receipted_message_id: 0x001e,
  user_message_reference: 0x0204,
  source_port: 0x020a,
  destination_port: 0x020b,
  sar_msg_ref_num: 0x020c,
  sar_total_segments: 0x020e,
  sar_segment_seqnum: 0x020f,
  sc_interface_version: 0x0210,
  network_error_code: 0x0423,
  message_payload: 0x0424,
  delivery_failure_reason: 0x0425,
  more_messages_to_send: 0x0426,
  message_state: 0x0427,
} as const;

/** message_state values (SMPP 3.4 §5.2.28), as in the message_state TLV. */
export const MessageState = {
  ENROUTE: 1,
  DELIVERED: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIVERABLE: 5,
  ACCEPTED: 6,
  UNKNOWN: 7,
  REJECTED: 8,
} as const;

/** Largest size of each C-Octet String field, its NUL included (SMPP 3.4 §4.1, §4.4.1, §4.6.1). */
export const MaxCString = {
  systemId: 16,
  password: 9,
  systemType: 13,
  addressRange: 41,
  serviceType: 6,
  address: 21,
  time: 17,
  messageId: 65,
} as const;

/** short_message is 0-254 octets (SMPP 3.4 §4.4.1); longer content goes in message_payload. */
export const MAX_SHORT_MESSAGE_BYTES = 254;
/** interface_version of SMPP 3.4 (SMPP 3.4 §5.2.4). */
export const SMPP_VERSION_34 = 0x34;
export const HEADER_BYTES = 16;

/** An optional parameter: tag, and its value as the octets on the wire (SMPP 3.4 §5.3). */
export interface Tlv {
  readonly tag: number;
  readonly value: Buffer;
}

interface Header {
  readonly commandStatus: number;
  readonly sequenceNumber: number;
}

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

/** bind_transmitter, bind_receiver, bind_transceiver (SMPP 3.4 §4.1.1, §4.1.3, §4.1.5). */
export interface BindPdu extends Header {
  readonly command: 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver';
  readonly systemId: string;
  readonly password: string;
  readonly systemType: string;
  readonly interfaceVersion: number;
  readonly addrTon: number;
  readonly addrNpi: number;
  readonly addressRange: string;
}

/** The bind responses (SMPP 3.4 §4.1.2, §4.1.4, §4.1.6); the body is absent on an error. */
export interface BindRespPdu extends Header {
  readonly command: 'bind_transmitter_resp' | 'bind_receiver_resp' | 'bind_transceiver_resp';
  readonly systemId: string;
  readonly tlvs: readonly Tlv[];
}

/** The mandatory fields that submit_sm and deliver_sm share (SMPP 3.4 §4.4.1, §4.6.1). */
export interface ShortMessageFields {
  readonly serviceType: string;
  readonly sourceAddrTon: number;
  readonly sourceAddrNpi: number;
  readonly sourceAddr: string;
  readonly destAddrTon: number;
  readonly destAddrNpi: number;
  readonly destinationAddr: string;
  readonly esmClass: number;
  readonly protocolId: number;
  readonly priorityFlag: number;
  readonly scheduleDeliveryTime: string;
  readonly validityPeriod: string;
  readonly registeredDelivery: number;
  readonly replaceIfPresentFlag: number;
  readonly dataCoding: number;
  readonly smDefaultMsgId: number;
  /** Octets as sent; sm_length is its length. */
  readonly shortMessage: Buffer;
  readonly tlvs: readonly Tlv[];
}

export interface SubmitSmPdu extends Header, ShortMessageFields {
  readonly command: 'submit_sm';
}

export interface DeliverSmPdu extends Header, ShortMessageFields {
  readonly command: 'deliver_sm';
}

/** submit_sm_resp and deliver_sm_resp (SMPP 3.4 §4.4.2, §4.6.2). */
export interface MessageRespPdu extends Header {
  readonly command: 'submit_sm_resp' | 'deliver_sm_resp';
  readonly messageId: string;
}

/** PDUs that are a header only (SMPP 3.4 §4.2, §4.3, §4.11). */
export interface HeaderOnlyPdu extends Header {
  readonly command:
    'unbind' | 'unbind_resp' | 'enquire_link' | 'enquire_link_resp' | 'generic_nack';
}

/** A PDU whose command_id Nok does not speak: the session answers generic_nack ESME_RINVCMDID. */
export interface UnknownPdu extends Header {
  readonly command: 'unknown';
  readonly commandId: number;
  readonly body: Buffer;
}

export type Pdu =
  BindPdu | BindRespPdu | SubmitSmPdu | DeliverSmPdu | MessageRespPdu | HeaderOnlyPdu | UnknownPdu;

export function isResponseCommandId(commandId: number): boolean {
  return (commandId & RESPONSE_BIT) !== 0;
}
