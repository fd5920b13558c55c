import type { NumberPageQuery } from './contacts-store.js';

export interface BlocklistEntry {
  readonly msisdn: string;
  readonly createdAt: number;
}

/** Numbers never sent to: one list per account, and the platform's (scope 0). */
export interface BlocklistStore {
  addToBlocklist(
    scopeAccountId: number,
    msisdns: readonly string[],
    nowMs: number,
  ): Promise<number>;
  /** Blocked numbers for an account: its own list and the platform-wide one. */
  blockedNumbers(accountId: number): Promise<Set<string>>;
  /** Entries of one blocklist scope (an account, or 0 for the platform), in number order. */
  blocklistPage(
    scopeAccountId: number,
    query: NumberPageQuery,
  ): Promise<{ items: BlocklistEntry[]; total: number }>;
  /** Removes the numbers from one scope; returns how many were on it. */
  removeFromBlocklist(scopeAccountId: number, msisdns: readonly string[]): Promise<number>;
}
