import type { RecipientStatus } from '../statuses.js';
import type { DeliveryStatus, PartOutcome, ReceiptReport } from './delivery-store.js';
import { allParts, withPart, type PartMask } from './part-mask.js';

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

/** One thing that happened to one recipient, as a submit outcome, a matched receipt or a sweep. */
export type DeliveryEvent =
  | { readonly kind: 'accepted'; readonly part: number }
  | { readonly kind: 'retry'; readonly nextAttemptAt: number; readonly error: string }
  | {
      readonly kind: 'final';
      readonly status: Exclude<DeliveryStatus, 'success'>;
      readonly error: string;
    }
  | {
      readonly kind: 'receipt';
      readonly part: number;
      readonly outcome: NonNullable<ReceiptReport['outcome']>;
      readonly error: string | null;
    }
  | { readonly kind: 'timeout' };

export interface FoldResult {
  readonly state: RecipientDeliveryState;
  /** Whether any field changed (the row needs writing). */
  readonly changed: boolean;
  /** The final status it reached in this fold, if it was pending before: the counter delta. */
  readonly became: DeliveryStatus | null;
}

/** The error a recipient keeps when no receipt came within its carrier's window. */
export const NO_RECEIPT = 'no receipt';

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

/** A recipient's events of a batch, in batch order, under the recipient they belong to. */
export interface RecipientEvents {
  readonly messageId: number;
  readonly seq: number;
  readonly events: DeliveryEvent[];
}

/**
 * Groups events by recipient, keeping each recipient's events in the order given, the
 * recipients sorted by (message, seq) so that concurrent writers lock rows in one order.
 */
export class EventsByRecipient {
  readonly #byKey = new Map<string, RecipientEvents>();

  add(messageId: number, seq: number, event: DeliveryEvent): void {
    const key = `${messageId}:${seq}`;
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { messageId, seq, events: [] };
      this.#byKey.set(key, entry);
    }
    entry.events.push(event);
  }

  get size(): number {
    return this.#byKey.size;
  }

  sorted(): RecipientEvents[] {
    return [...this.#byKey.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  }
}

/** A submit outcome as the event it is for its recipient. */
export function outcomeEvent(outcome: PartOutcome): DeliveryEvent {
  switch (outcome.kind) {
    case 'accepted':
      return { kind: 'accepted', part: outcome.part };
    case 'retry':
      return { kind: 'retry', nextAttemptAt: outcome.nextAttemptAt, error: outcome.error };
    case 'final':
      return { kind: 'final', status: outcome.status, error: outcome.error };
  }
}

/** Where an accepted part's receipt is looked for: the stored submission of its SMSC id. */
export interface Submission {
  readonly carrier: string;
  /** As stored: normalised. */
  readonly smscId: string;
  readonly messageId: number;
  readonly seq: number;
  readonly part: number;
  readonly submittedAt: number;
}

export interface MatchedReceipts {
  /** Final receipts that found their submission, in batch order. */
  readonly matched: { readonly receipt: ReceiptReport; readonly submission: Submission }[];
  /** Final receipts that did not: orphans, in batch order. */
  readonly unmatched: ReceiptReport[];
}

/**
 * Matches final receipts to submissions in batch order: each receipt takes the first of its id's
 * forms (smscIdForms) that names a submission not already taken, so a duplicate receipt in one
 * batch finds nothing, as it would in the next one. Intermediate receipts (no outcome) match
 * nothing and are not orphans.
 */
export function matchReceipts(
  receipts: readonly ReceiptReport[],
  find: (carrier: string, smscId: string) => Submission | undefined,
  forms: (smscId: string) => string[],
): MatchedReceipts {
  const taken = new Set<string>();
  const matched: MatchedReceipts['matched'] = [];
  const unmatched: ReceiptReport[] = [];
  for (const receipt of receipts) {
    if (receipt.outcome === null) continue;
    let found: Submission | undefined;
    for (const id of forms(receipt.smscId)) {
      const key = `${receipt.carrier}\u0000${id}`;
      if (taken.has(key)) continue;
      found = find(receipt.carrier, id);
      if (found) {
        taken.add(key);
        break;
      }
    }
    if (found) matched.push({ receipt, submission: found });
    else unmatched.push(receipt);
  }
  return { matched, unmatched };
}

/** The last of items with one key, in first-seen order: what one row per key keeps. */
export function lastPerKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    byKey.delete(k);
    byKey.set(k, item);
  }
  return [...byKey.values()];
}
