import type { AccountStatus } from '../statuses.js';

export interface Account {
  readonly id: number;
  readonly name: string;
  readonly balance: number;
  readonly pricePerPart: number;
  readonly rateLimitRequests: number | null;
  readonly status: AccountStatus;
  readonly createdAt: number;
  /** Every person of the account must sign in with a second factor (TOTP). */
  readonly requireTotp: boolean;
  /** The console warns its people when the balance is below this; 0: never. */
  readonly lowBalanceThreshold: number;
}

/** What an admin may change of an account besides its balance and status. */
export interface AccountSettings {
  readonly pricePerPart?: number;
  /** Requests per rate-limit window for each of its keys; null: the platform's default. */
  readonly rateLimitRequests?: number | null;
  /** The balance below which the console warns; 0: never. */
  readonly lowBalanceThreshold?: number;
}

/** Accounts as the use cases read and change them; the balance changes through BalanceWriter. */
export interface AccountStore {
  createAccount(input: { name: string; pricePerPart?: number; nowMs: number }): Promise<Account>;
  findAccount(id: number): Promise<Account | null>;
  countAccounts(): Promise<number>;
  /** A page of accounts by id, optionally those whose name contains `search`. */
  listAccounts(query: {
    search?: string;
    offset: number;
    limit: number;
  }): Promise<{ items: Account[]; total: number }>;
  /** Writes the settings given; null when there is no such account. */
  updateAccountSettings(id: number, settings: AccountSettings): Promise<Account | null>;
  /** Sets the status; true when this call changed it. */
  setAccountStatus(id: number, status: AccountStatus): Promise<boolean>;
  /** Whether every person of the account must sign in with TOTP; false when there is no such account. */
  setAccountRequireTotp(accountId: number, required: boolean): Promise<boolean>;
}

/** Only in a transaction: see {@link Transactor}. */
export interface AccountLock {
  /**
   * Holds the account's row until this transaction ends, so that checks made after it over the
   * account's people (its last owner) cannot race another transaction doing the same.
   */
  lockAccount(accountId: number): Promise<void>;
}
