import type { ShortMessageFields } from './pdu.js';

/** What a caller must say of a submit_sm or deliver_sm; everything else has a default. */
export type ShortMessageInput = Partial<ShortMessageFields> &
  Pick<ShortMessageFields, 'sourceAddr' | 'destinationAddr' | 'dataCoding' | 'shortMessage'>;

/**
 * The full mandatory fields of SMPP 3.4 §4.4.1 from the few that vary. data_coding has no
 * default on purpose: an SMSC guesses wrong when it is left to guess (DESIGN §4).
 */
export function shortMessageFields(input: ShortMessageInput): ShortMessageFields {
  return {
    serviceType: input.serviceType ?? '',
    sourceAddrTon: input.sourceAddrTon ?? 0,
    sourceAddrNpi: input.sourceAddrNpi ?? 0,
    sourceAddr: input.sourceAddr,
    destAddrTon: input.destAddrTon ?? 0,
    destAddrNpi: input.destAddrNpi ?? 0,
    destinationAddr: input.destinationAddr,
    esmClass: input.esmClass ?? 0,
    protocolId: input.protocolId ?? 0,
    priorityFlag: input.priorityFlag ?? 0,
    scheduleDeliveryTime: input.scheduleDeliveryTime ?? '',
    validityPeriod: input.validityPeriod ?? '',
    registeredDelivery: input.registeredDelivery ?? 0,
    replaceIfPresentFlag: input.replaceIfPresentFlag ?? 0,
    dataCoding: input.dataCoding,
    smDefaultMsgId: input.smDefaultMsgId ?? 0,
    shortMessage: input.shortMessage,
    tlvs: input.tlvs ?? [],
  };
}
