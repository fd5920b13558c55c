// What an ESME answers to a request it does not serve, or to one that does not parse. SMPP 3.4
// §4.3: generic_nack for a command_id it does not know; otherwise the request's own response with
// an error status, whose body is then left out (§4.1.2, §4.4.2).
import { CommandId, CommandStatus, type Pdu, isResponseCommandId } from './pdu.js';
import { errorResponse } from './error-response.js';
import { PduDecodeError } from './smpp-errors.js';

/**
 * The response owed to `incoming` (a PDU the session does not handle itself, or a request whose
 * body did not decode), or null when nothing is owed (a response, or a generic_nack).
 */
export function answerIncoming(incoming: Pdu | PduDecodeError): Pdu | null {
  if (incoming instanceof PduDecodeError) {
    if (isResponseCommandId(incoming.commandId)) return null;
    return errorResponse(incoming.commandId, incoming.commandStatus, incoming.sequenceNumber);
  }
  const sequenceNumber = incoming.sequenceNumber;
  switch (incoming.command) {
    case 'enquire_link':
      return { command: 'enquire_link_resp', commandStatus: 0, sequenceNumber };
    case 'unbind':
      return { command: 'unbind_resp', commandStatus: 0, sequenceNumber };
    case 'deliver_sm':
      // The session hands deliver_sm to its owner; reaching here means nobody takes it.
      return errorResponse(CommandId.deliver_sm, CommandStatus.ESME_RSYSERR, sequenceNumber);
    case 'bind_transmitter':
    case 'bind_receiver':
    case 'bind_transceiver':
    case 'submit_sm':
      // An SMSC's commands, not an ESME's: the session is the wrong side of them.
      return errorResponse(
        CommandId[incoming.command],
        CommandStatus.ESME_RINVBNDSTS,
        sequenceNumber,
      );
    case 'unknown':
      return {
        command: 'generic_nack',
        commandStatus: CommandStatus.ESME_RINVCMDID,
        sequenceNumber,
      };
    default:
      return null;
  }
}
