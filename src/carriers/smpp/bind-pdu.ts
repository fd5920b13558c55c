import { type BindPdu, SMPP_VERSION_34 } from './pdu.js';
import type { SessionOptions } from './session-options.js';

/** bind_transmitter, bind_receiver or bind_transceiver for `options` (SMPP 3.4 §4.1). */
export function bindPdu(options: SessionOptions): BindPdu {
  return {
    command: `bind_${options.mode}`,
    commandStatus: 0,
    sequenceNumber: 0,
    systemId: options.systemId,
    password: options.password,
    systemType: options.systemType ?? '',
    interfaceVersion: SMPP_VERSION_34,
    addrTon: options.addrTon ?? 0,
    addrNpi: options.addrNpi ?? 0,
    addressRange: options.addressRange ?? '',
  };
}
