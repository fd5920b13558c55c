// The delivery fold's rules as a plain function over one recipient: the model the SQL fold
// that both engines run (src/storage/delivery-fold.ts) is checked against
// (test/storage/delivery-fold.property.test.ts). Nothing in the server uses it.
import { NO_RECEIPT, type DeliveryEvent } from '../../src/domain/delivery/delivery-events.js';
import type { DeliveryStatus } from '../../src/domain/delivery/delivery-store.js';
import { allParts, withPart, type PartMask } from '../../src/domain/delivery/part-mask.js';
import type { RecipientStatus } from '../../src/domain/statuses.js';

/** What delivery keeps on a recipient's row. */
export interface RecipientDeliveryState {
  readonly status: RecipientStatus;
  readonly error: string | null;
  /** Submit outcomes recorded while it was pending: one per part tried, whatever the answer. */
  readonly attempts: number;
  readonly partsAccepted: PartMask;
  readonly partsDelivered: PartMask;
  readonly nextAttemptAt: number;
  readonly firstAttemptAt: number | null;
  readonly updatedAt: number;
}

export interface FoldResult {
  readonly state: RecipientDeliveryState;
  /** Whether any field changed (the row needs writing). */
  readonly changed: boolean;
  /** The final status it reached in this fold, if it was pending before: the counter delta. */
  readonly became: DeliveryStatus | null;
}

/**
 * Folds events, in the order they happened, into a recipient's delivery state (ADR 0020):
 *
 * - A final recipient never changes: every later event is ignored, whatever it is.
 * - A submit outcome counts one attempt: `accepted` adds its part to `partsAccepted`; `retry`
 *   holds the recipient back until its `nextAttemptAt`, starts its retry window
 *   (`firstAttemptAt`) and keeps its error; `final` makes it final with its status and error.
 * - A receipt: DELIVRD adds its part to `partsDelivered`, and the recipient is `success` (error
 *   cleared) once every part is delivered; any other final receipt makes it final with that
 *   outcome and that receipt's error (null when the receipt gave none).
 * - `timeout` (the sweep) makes it final: `timeout`, "no receipt".
 * - `updatedAt` moves only when the status does.
 *
 * Folding a batch equals folding its events one at a time, so the size of a group commit never
 * changes a recipient's row, and both engines call this one function.
 */
export function foldDelivery(
  current: RecipientDeliveryState,
  parts: number,
  events: readonly DeliveryEvent[],
  nowMs: number,
): FoldResult {
  let state = current;
  let became: DeliveryStatus | null = null;
  for (const event of events) {
    if (state.status !== 'pending') break;
    switch (event.kind) {
      case 'accepted':
        state = {
          ...state,
          attempts: state.attempts + 1,
          partsAccepted: withPart(state.partsAccepted, event.part),
        };
        break;
      case 'retry':
        state = {
          ...state,
          attempts: state.attempts + 1,
          nextAttemptAt: event.nextAttemptAt,
          firstAttemptAt: state.firstAttemptAt ?? nowMs,
          error: event.error,
        };
        break;
      case 'final':
        state = { ...state, attempts: state.attempts + 1 };
        state = finish(state, event.status, event.error, nowMs);
        became = event.status;
        break;
      case 'receipt':
        if (event.outcome === 'success') {
          const delivered = withPart(state.partsDelivered, event.part);
          state = { ...state, partsDelivered: delivered };
          if (delivered === allParts(parts)) {
            state = finish(state, 'success', null, nowMs);
            became = 'success';
          }
        } else {
          state = finish(state, event.outcome, event.error, nowMs);
          became = event.outcome;
        }
        break;
      case 'timeout':
        state = finish(state, 'timeout', NO_RECEIPT, nowMs);
        became = 'timeout';
        break;
    }
  }
  return { state, changed: state !== current, became };
}

function finish(
  state: RecipientDeliveryState,
  status: DeliveryStatus,
  error: string | null,
  nowMs: number,
): RecipientDeliveryState {
  return { ...state, status, error, updatedAt: nowMs };
}
