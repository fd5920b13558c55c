import type { NumberList } from './number-list.js';

/** An uploaded list as stored, without its numbers. */
export interface StoredRecipientList {
  readonly uuid: string;
  readonly accountId: number;
  readonly expiresAt: number;
}

export interface NewRecipientList {
  readonly uuid: string;
  readonly accountId: number;
  readonly numbers: NumberList;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Numbers uploaded from the console, kept in the database until sent or expired (ADR 0034). */
export interface RecipientListsStore {
  insertRecipientList(list: NewRecipientList): Promise<void>;
  /** Deletes the account's lists but its `keep` newest; returns how many went. */
  trimRecipientLists(accountId: number, keep: number): Promise<number>;
  findRecipientList(uuid: string): Promise<StoredRecipientList | null>;
  /** The numbers of list `uuid` as they were uploaded; null once it is gone. */
  loadRecipientListNumbers(uuid: string): Promise<NumberList | null>;
  /** Deletes the account's list `uuid`; false when there was none (already sent, or purged). */
  deleteRecipientList(uuid: string, accountId: number): Promise<boolean>;
  /** Deletes at most `limit` lists whose time is up at `nowMs`, oldest first; returns how many. */
  deleteExpiredRecipientLists(nowMs: number, limit: number): Promise<number>;
}
