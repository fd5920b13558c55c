/**
 * An insertion-ordered set of uint32 values (number suffixes) for millions of entries.
 *
 * A JS Set of 2M numbers costs ~100 MB and seconds of GC; this is an open-addressing table with
 * linear probing on a Uint32Array (load factor ≤ 0.5) plus a Uint32Array of values in insertion
 * order: ~12–24 bytes per entry and no per-entry allocation.
 */

// Marks an empty slot. The value itself is still a legal member: it is tracked by a flag.
const EMPTY_SLOT = 0xffffffff;
// 2^32 / golden ratio: Fibonacci hashing spreads sequential and clustered suffixes evenly.
const GOLDEN_RATIO_32 = 0x9e3779b1;
const MIN_CAPACITY = 16;

export class NumberSet {
  private table: Uint32Array;
  private shift: number;
  private values: Uint32Array;
  private count = 0;
  private hasEmptySlotValue = false;

  constructor(expectedSize = MIN_CAPACITY) {
    const expected = Math.max(MIN_CAPACITY, Math.ceil(expectedSize));
    this.table = newTable(tableCapacityFor(expected));
    this.shift = shiftFor(this.table.length);
    this.values = new Uint32Array(expected);
  }

  get size(): number {
    return this.count;
  }

  /** Returns true when the value was not yet in the set. */
  add(value: number): boolean {
    checkUint32(value);
    if (value === EMPTY_SLOT) {
      if (this.hasEmptySlotValue) return false;
      this.hasEmptySlotValue = true;
      this.append(value);
      return true;
    }
    const table = this.table;
    const mask = table.length - 1;
    let slot = Math.imul(value, GOLDEN_RATIO_32) >>> this.shift;
    for (;;) {
      const held = table[slot];
      if (held === EMPTY_SLOT) break;
      if (held === value) return false;
      slot = (slot + 1) & mask;
    }
    table[slot] = value;
    this.append(value);
    if (this.count * 2 > table.length) this.rehash(table.length * 2);
    return true;
  }

  has(value: number): boolean {
    if (value >>> 0 !== value) return false;
    if (value === EMPTY_SLOT) return this.hasEmptySlotValue;
    const table = this.table;
    const mask = table.length - 1;
    let slot = Math.imul(value, GOLDEN_RATIO_32) >>> this.shift;
    for (;;) {
      const held = table[slot];
      if (held === value) return true;
      if (held === EMPTY_SLOT) return false;
      slot = (slot + 1) & mask;
    }
  }

  /** A copy of the members in first-insertion order, sized exactly. */
  toArray(): Uint32Array {
    return this.values.slice(0, this.count);
  }

  private append(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
  }

  private rehash(capacity: number): void {
    const table = newTable(capacity);
    const shift = shiftFor(capacity);
    const mask = capacity - 1;
    const values = this.values;
    for (let i = 0; i < this.count; i++) {
      const value = values[i] as number;
      if (value === EMPTY_SLOT) continue;
      let slot = Math.imul(value, GOLDEN_RATIO_32) >>> shift;
      while (table[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      table[slot] = value;
    }
    this.table = table;
    this.shift = shift;
  }
}

function checkUint32(value: number): void {
  if (value >>> 0 !== value) throw new RangeError(`not a uint32: ${value}`);
}

function tableCapacityFor(expectedSize: number): number {
  let capacity = MIN_CAPACITY;
  while (capacity < expectedSize * 2) capacity *= 2;
  return capacity;
}

function shiftFor(capacity: number): number {
  return 32 - Math.log2(capacity);
}

function newTable(capacity: number): Uint32Array {
  return new Uint32Array(capacity).fill(EMPTY_SLOT);
}
