/** Why a ledger row moved the balance; the console's contract shows the same list. */
export const LEDGER_REASONS = ['top-up', 'send', 'hold', 'refund', 'adjustment'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** One row of an account's credit ledger, with the uuid of the message it is about, if any. */
export interface LedgerEntry {
  readonly id: number;
  readonly delta: number;
  readonly reason: LedgerReason;
  readonly messageUuid: string | null;
  readonly balanceAfter: number;
  readonly note: string | null;
  readonly createdAt: number;
}

/** One change of an account's balance, as its ledger row records it. */
export interface BalanceChange {
  readonly accountId: number;
  /** Credits added; negative to debit. */
  readonly delta: number;
  readonly reason: LedgerReason;
  readonly messageId?: number | null;
  readonly note?: string | null;
  readonly nowMs: number;
}

/** Reading the ledger; it is written only with the balance, through {@link BalanceWriter}. */
export interface LedgerStore {
  ledgerSum(accountId: number): Promise<number>;
  /** Up to `limit` ledger rows of the account with ids below `beforeId` (all when null), newest first. */
  ledgerPage(accountId: number, beforeId: number | null, limit: number): Promise<LedgerEntry[]>;
}

/**
 * The only way a balance changes (ADR 0031), and only in a transaction: a store has it only as
 * the one its `transaction` hands to the work (see {@link Transactor}), which refuses it once the
 * work has settled. So a balance written without its ledger row, or a ledger row without its
 * balance, or either outside a transaction, does not compile.
 */
export interface BalanceWriter {
  /**
   * Adds `delta` to the balance and writes its ledger row (with the balance after) in this
   * transaction. A debit the balance does not cover changes nothing and answers null; otherwise
   * answers the balance after.
   */
  changeBalance(change: BalanceChange): Promise<number | null>;
}
