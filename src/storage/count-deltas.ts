import type { RecipientStatus } from '../domain/statuses.js';

/**
 * Per-status count changes of a batch, summed before they are written: one counter row
 * update per (message, status) instead of one per recipient. Entries come sorted so that
 * concurrent writers lock counter rows in the same order.
 */
export class CountDeltas {
  readonly #deltas = new Map<string, { messageId: number; status: string; delta: number }>();

  move(messageId: number, from: RecipientStatus, to: RecipientStatus, count = 1): void {
    this.add(messageId, from, -count);
    this.add(messageId, to, count);
  }

  add(messageId: number, status: string, delta: number): void {
    const key = `${messageId}\u0000${status}`;
    const entry = this.#deltas.get(key);
    if (entry) entry.delta += delta;
    else this.#deltas.set(key, { messageId, status, delta });
  }

  entries(): { messageId: number; status: string; delta: number }[] {
    return [...this.#deltas.values()]
      .filter((entry) => entry.delta !== 0)
      .sort((a, b) => a.messageId - b.messageId || (a.status < b.status ? -1 : 1));
  }
}
