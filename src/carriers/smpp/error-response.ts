import { CommandId, type Pdu } from './pdu.js';

/**
 * The response to request `commandId` carrying only an error status: the request's own response
 * with its body left out (SMPP 3.4 §4.1.2, §4.4.2), or generic_nack for a command without one.
 */
export function errorResponse(
  commandId: number,
  commandStatus: number,
  sequenceNumber: number,
): Pdu {
  switch (commandId) {
    case CommandId.bind_transmitter:
      return {
        command: 'bind_transmitter_resp',
        commandStatus,
        sequenceNumber,
        systemId: '',
        tlvs: [],
      };
    case CommandId.bind_receiver:
      return {
        command: 'bind_receiver_resp',
        commandStatus,
        sequenceNumber,
        systemId: '',
        tlvs: [],
      };
    case CommandId.bind_transceiver:
      return {
        command: 'bind_transceiver_resp',
        commandStatus,
        sequenceNumber,
        systemId: '',
        tlvs: [],
      };
    case CommandId.submit_sm:
      return { command: 'submit_sm_resp', commandStatus, sequenceNumber, messageId: '' };
    case CommandId.deliver_sm:
      return { command: 'deliver_sm_resp', commandStatus, sequenceNumber, messageId: '' };
    default:
      return { command: 'generic_nack', commandStatus, sequenceNumber };
  }
}
