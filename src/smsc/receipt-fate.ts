import type { ReceiptStat } from '../carriers/smpp/parse-receipt-text.js';
import type { FateShares } from './smsc-options.js';

/** The final states the simulator gives parts. */
export type SimulatedStat = Extract<ReceiptStat, 'DELIVRD' | 'UNDELIV' | 'EXPIRED' | 'REJECTD'>;

/** What becomes of a submitted part: the receipt's stat, or no receipt at all. */
export type ReceiptFate = SimulatedStat | null;

/**
 * The fate of every part sent to `destination`, drawn from a hash of the number and the seed,
 * not from a random stream: all parts of one recipient share one fate, whatever the order or
 * interleaving of submits, and the same seed gives the same fates on every run.
 */
export function receiptFate(destination: string, seed: number, shares: FateShares): ReceiptFate {
  const draw = hashDestination(destination, seed) / 0x1_0000_0000;
  let edge = shares.delivered;
  if (draw < edge) return 'DELIVRD';
  edge += shares.failed;
  if (draw < edge) return 'UNDELIV';
  edge += shares.expired;
  if (draw < edge) return 'EXPIRED';
  edge += shares.rejected;
  if (draw < edge) return 'REJECTD';
  // The remainder is noReceipt; float rounding in the edges lands here too, never on a stat.
  return shares.noReceipt > 0 ? null : 'DELIVRD';
}

/**
 * FNV-1a over the number's characters, seeded, then the murmur3 finaliser: FNV alone leaves
 * consecutive numbers (66800000000, 66800000001, …) too close together to split by ratio.
 */
export function hashDestination(destination: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < destination.length; i++) {
    h ^= destination.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
