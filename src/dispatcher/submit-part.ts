import type { DispatchRecipient, PartOutcome } from '../domain/delivery/delivery-store.js';
import type { OutgoingPart, Router, SubmitAnswer } from '../domain/delivery/carrier-port.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';

/**
 * Submits one part through the carriers of its route, in failover order: a carrier that is
 * down passes the part to the next; any other answer is the part's outcome. A part no carrier
 * could take now is retried later, or `expired` once its retry window is over.
 */
export async function submitPart(
  route: Router,
  policy: RetryPolicy,
  part: OutgoingPart,
  recipient: DispatchRecipient,
  now: () => number,
  observer?: { submitted(carrier: string, answer: SubmitAnswer, part: number): void },
): Promise<PartOutcome> {
  const { messageId } = part;
  const { seq } = recipient;
  const carriers = route(part.msisdn);
  if (carriers.length === 0) {
    return {
      kind: 'final',
      messageId,
      seq,
      status: 'failed',
      error: 'no carrier takes this number',
    };
  }
  let error = '';
  for (const carrier of carriers) {
    const answer = await carrier.submit(part);
    observer?.submitted(carrier.name, answer, part.part);
    switch (answer.kind) {
      case 'accepted':
        return {
          kind: 'accepted',
          messageId,
          seq,
          part: part.part,
          carrier: carrier.name,
          smscId: answer.smscId,
        };
      case 'invalid':
        return { kind: 'final', messageId, seq, status: 'invalid', error: answer.error };
      case 'failed':
        return { kind: 'final', messageId, seq, status: 'failed', error: answer.error };
      case 'retry':
        return retryLater(policy, messageId, recipient, `${carrier.name}: ${answer.error}`, now());
      case 'down':
        error = `${carrier.name}: ${answer.error}`;
    }
  }
  return retryLater(policy, messageId, recipient, error, now());
}

function retryLater(
  policy: RetryPolicy,
  messageId: number,
  recipient: DispatchRecipient,
  error: string,
  nowMs: number,
): PartOutcome {
  const at = nextAttemptAt(policy, recipient.firstAttemptAt, nowMs);
  if (at === null) {
    return {
      kind: 'final',
      messageId,
      seq: recipient.seq,
      status: 'expired',
      error: `retry window over; last error: ${error}`,
    };
  }
  return { kind: 'retry', messageId, seq: recipient.seq, nextAttemptAt: at, error };
}
