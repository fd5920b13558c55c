import type { DeliveryStatus, ReceiptReport } from './delivery-store.js';

// What happens to a recipient in delivery, as events, and how receipts find their submissions.
// The rules that fold a recipient's events into its row are written once, in SQL that both
// engines run (storage/delivery-fold.ts, ADR 0045).

/**
 * One thing that happened to one recipient, as a submit outcome, a matched receipt or a sweep. A
 * submit outcome (`PartOutcome`) is its own event.
 */
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

/** The error a recipient keeps when no receipt came within its carrier's window. */
export const NO_RECEIPT = 'no receipt';

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
