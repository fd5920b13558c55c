import type { DeliverSmPdu } from './pdu.js';
import type { DeliverHandler } from './session-options.js';

/**
 * Hands a deliver_sm to its owner and resolves with the command_status for its deliver_sm_resp:
 * the handler's, or `failureStatus` when there is no handler, it throws, rejects or resolves
 * with something that is not a status. Never rejects: a receipt the owner could not store is
 * answered with an error so that the SMSC delivers it again.
 */
export function deliverToOwner(
  pdu: DeliverSmPdu,
  handler: DeliverHandler | undefined,
  failureStatus: number,
): Promise<number> {
  if (!handler) return Promise.resolve(failureStatus);
  let outcome: Promise<number> | number;
  try {
    outcome = handler(pdu);
  } catch {
    return Promise.resolve(failureStatus);
  }
  return Promise.resolve(outcome).then(
    (status) => (Number.isInteger(status) && status >= 0 ? status : failureStatus),
    () => failureStatus,
  );
}
