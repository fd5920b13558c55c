// What a submit_sm_resp's command_status means for the recipient part, as a careful gateway reads
// SMPP 3.4 §5.1.3 (and Kannel's and Jasmin's handling of it):
//
//   status                                      class        what the dispatcher does
//   ESME_ROK 0x00                               accepted     store the message id, await the receipt
//   ESME_RTHROTTLED 0x58, ESME_RMSGQFUL 0x14    throttled    slow this carrier down, retry the part
//   ESME_RINVDSTADR 0x0B, ESME_RINVDSTTON 0x50,
//     ESME_RINVDSTNPI 0x51                      invalid      final: the recipient's number is wrong
//   ESME_RSYSERR 0x08, ESME_RSUBMITFAIL 0x45,
//     ESME_RX_T_APPN 0x64, ESME_RINVBNDSTS 0x04,
//     ESME_RDELIVERYFAILURE 0xFE,
//     ESME_RUNKNOWNERR 0xFF                     transient    retry with backoff (on another bind if
//                                                            there is one) until the retry window ends
//   anything else (ESME_RINVSRCADR 0x0A,
//     ESME_RINVDCS 0x104, ESME_RINVMSGLEN 0x01,
//     ESME_RINVESMCLASS 0x43, vendor codes …)   permanent    final: the same submit would fail again
//
// Transient covers the SMSC's own trouble (system error, submit failed, temporary application
// error), a bind the SMSC no longer counts as bound (RINVBNDSTS: another bind can take the part),
// and the two catch-alls an SMSC uses when it does not say (RDELIVERYFAILURE, RUNKNOWNERR): a retry
// costs one more submit, a wrong "permanent" loses the message. Everything else says the message
// itself is wrong, so a retry would be refused the same way.
import { CommandStatus } from './pdu.js';

export type SubmitStatusClass = 'accepted' | 'throttled' | 'invalid' | 'transient' | 'permanent';

const CLASS_OF_STATUS = new Map<number, SubmitStatusClass>([
  [CommandStatus.ESME_ROK, 'accepted'],
  [CommandStatus.ESME_RTHROTTLED, 'throttled'],
  [CommandStatus.ESME_RMSGQFUL, 'throttled'],
  [CommandStatus.ESME_RINVDSTADR, 'invalid'],
  [CommandStatus.ESME_RINVDSTTON, 'invalid'],
  [CommandStatus.ESME_RINVDSTNPI, 'invalid'],
  [CommandStatus.ESME_RSYSERR, 'transient'],
  [CommandStatus.ESME_RSUBMITFAIL, 'transient'],
  [CommandStatus.ESME_RX_T_APPN, 'transient'],
  [CommandStatus.ESME_RINVBNDSTS, 'transient'],
  [CommandStatus.ESME_RDELIVERYFAILURE, 'transient'],
  [CommandStatus.ESME_RUNKNOWNERR, 'transient'],
]);

/** The class of a submit_sm_resp command_status; see the table above. */
export function classifySubmitStatus(commandStatus: number): SubmitStatusClass {
  return CLASS_OF_STATUS.get(commandStatus) ?? 'permanent';
}
