import type { MessageStatus, RecipientStatus } from '../statuses.js';

/*
 * What a recipient's stored status reads as, by its message (ADR 0041). A cancelled message
 * was never released: its recipients that were waiting (`pending`) will never be sent, and
 * read as `failed` — never as queued — in every count, page, filter and export of both APIs.
 * The rule is applied where statuses are read, not written, so no row has to change when a
 * message is cancelled and no writer (cancel, materialiser) can race another over it; a
 * cancelled message's rows never change again. Invalid and blocked recipients stay as they are.
 */

/** The status `stored` reads as for a recipient of a message in `messageStatus`. */
export function shownStatus(
  messageStatus: MessageStatus,
  stored: RecipientStatus,
): RecipientStatus {
  return messageStatus === 'cancelled' && stored === 'pending' ? 'failed' : stored;
}

/**
 * The stored status that reads as `wanted` (a filter on the shown status), or null when none
 * does: for a cancelled message `failed` is its stored `pending` (it was never released, so
 * none of its recipients has a delivery status) and `pending` is none.
 */
export function storedStatusFor(
  messageStatus: MessageStatus,
  wanted: RecipientStatus,
): RecipientStatus | null {
  if (messageStatus !== 'cancelled') return wanted;
  if (wanted === 'pending') return null;
  return wanted === 'failed' ? 'pending' : wanted;
}
