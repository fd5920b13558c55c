/**
 * A set of a message's parts (which a carrier accepted, which were delivered), one bit a part,
 * kept as a bigint: JavaScript's bitwise operators on numbers stop at 32 bits, and a double is
 * exact only to 53, so neither could hold every message the API can produce. Both engines store
 * a mask in a signed 64-bit integer column; bits 0 to 62 keep it non-negative.
 */
export type PartMask = bigint;

/** The most parts a mask holds: a message with more cannot be tracked and is never accepted. */
export const MAX_PARTS = 63;

export const NO_PARTS: PartMask = 0n;

/** The mask of one part (numbered from 0). */
export function partBit(part: number): PartMask {
  if (!Number.isInteger(part) || part < 0 || part >= MAX_PARTS) {
    throw new RangeError(`part ${part} is outside 0..${MAX_PARTS - 1}`);
  }
  return 1n << BigInt(part);
}

/** The mask of every part of a message of `parts` parts. */
export function allParts(parts: number): PartMask {
  if (!Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) {
    throw new RangeError(`a message of ${parts} parts does not fit a part mask (1..${MAX_PARTS})`);
  }
  return (1n << BigInt(parts)) - 1n;
}

export function hasPart(mask: PartMask, part: number): boolean {
  return (mask & partBit(part)) !== 0n;
}

export function withPart(mask: PartMask, part: number): PartMask {
  return mask | partBit(part);
}

/** A mask as the engines store and return it: a decimal string or an integer. */
export function toPartMask(stored: string | number | bigint): PartMask {
  return BigInt(stored);
}
