import type { SenderRequestStore } from './senders/sender-request-store.js';
import type {
  AuditEntry,
  AuditEvent,
  AuditEventInput,
  AuditPageQuery,
  AuditQuery,
} from './audit/audit-event.js';
import type {
  AccountStatus,
  ApiKeyScope,
  MessageStatus,
  RecipientStatus,
  SenderStatus,
} from './statuses.js';
import type { DashboardStore } from './dashboard/dashboard-store.js';
import type { PeopleStore } from './users/people-store.js';
import type { ContactsStore } from './contacts/contacts-store.js';
import type { RecipientListsStore } from './recipients/recipient-lists-store.js';
import type { NewUser, SessionRecord, User, UserChanges, UserRole } from './users/user.js';

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

export interface ApiKeyRecord {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly prefix: string;
  readonly secretHash: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
}

export interface Sender {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly status: SenderStatus;
  readonly note: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A sender as one account sees it: its own, or shared with it by its owner. */
export interface VisibleSender extends Sender {
  readonly shared: boolean;
}

export interface Template {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly body: string;
}

export interface ContactGroup {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
}

export interface Message {
  readonly id: number;
  readonly uuid: string;
  readonly accountId: number;
  readonly refNo: string;
  readonly sender: string;
  readonly content: string;
  readonly parts: number;
  readonly status: MessageStatus;
  readonly scheduledAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly completedAt: number | null;
  readonly requestedCount: number;
  readonly duplicateCount: number;
  readonly recipientTotal: number;
  readonly validCount: number;
  readonly invalidCount: number;
  readonly blockedCount: number;
  readonly chargedCount: number;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly materialisedUpto: number;
}

/**
 * The recipient list as accepted, before (and besides) its rows: valid numbers take seqs
 * 1..numbers.length in request order (blocked ones flagged), invalid strings the seqs after.
 */
export interface CompactRecipientList {
  readonly numbers: Uint32Array;
  readonly blockedSeqs: readonly number[];
  readonly invalid: readonly string[];
}

export interface NewMessage {
  readonly uuid: string;
  readonly accountId: number;
  readonly apiKeyId: number | null;
  readonly refNo: string;
  readonly sender: string;
  readonly content: string;
  readonly parts: number;
  readonly status: MessageStatus;
  readonly scheduledAt: number | null;
  readonly createdAt: number;
  readonly requestedCount: number;
  readonly duplicateCount: number;
  readonly recipientTotal: number;
  readonly validCount: number;
  readonly invalidCount: number;
  readonly blockedCount: number;
  readonly chargedCount: number;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly completedAt: number | null;
  readonly recipients: CompactRecipientList;
}

export interface RecipientRecord {
  readonly seq: number;
  readonly msisdn: string;
  readonly status: RecipientStatus;
  readonly updatedAt: number | null;
}

export interface RecipientQuery {
  readonly status?: RecipientStatus;
  /** Text to find anywhere in the number, case-insensitively. */
  readonly search?: string;
}

export type LedgerReason = 'top-up' | 'send' | 'hold' | 'refund' | 'adjustment';

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

/** What an admin may change of an account besides its balance and status. */
export interface AccountSettings {
  readonly pricePerPart?: number;
  /** Requests per rate-limit window for each of its keys; null: the platform's default. */
  readonly rateLimitRequests?: number | null;
  /** The balance below which the console warns; 0: never. */
  readonly lowBalanceThreshold?: number;
}

export interface MessageListQuery {
  readonly status?: MessageStatus;
  readonly sender?: string;
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly search?: string;
  readonly offset: number;
  readonly limit: number;
}

export type IdempotencyClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly requestHash: string; readonly responseBody: string | null };

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

/**
 * Everything the use cases ask of storage. `transaction` runs `work` with a store bound to one
 * transaction; the use case decides what goes inside it.
 *
 * A plain Store cannot change a balance: `changeBalance` exists only on the
 * {@link TransactionStore} that `transaction` hands to its `work`, so a balance written without
 * its ledger row, or a ledger row without its balance, does not compile.
 */
export interface Store
  extends SenderRequestStore, PeopleStore, DashboardStore, ContactsStore, RecipientListsStore {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * Called on a store already bound to a transaction, it runs `work` in that same transaction.
   */
  transaction<T>(work: (tx: TransactionStore) => Promise<T>): Promise<T>;

  // accounts and keys
  createAccount(input: { name: string; pricePerPart?: number; nowMs: number }): Promise<Account>;
  findAccount(id: number): Promise<Account | null>;
  countAccounts(): Promise<number>;
  createApiKey(input: {
    accountId: number;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: readonly ApiKeyScope[];
    nowMs: number;
  }): Promise<ApiKeyRecord>;
  findApiKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null>;
  /** A key with what authentication needs of its account, in one round trip. */
  findApiKeyWithAccount(
    prefix: string,
  ): Promise<{ key: ApiKeyRecord; account: Pick<Account, 'status' | 'rateLimitRequests'> } | null>;
  findApiKey(id: number): Promise<ApiKeyRecord | null>;
  revokeApiKey(id: number, nowMs: number): Promise<boolean>;
  touchApiKey(id: number, nowMs: number): Promise<void>;
  /** An account's keys, revoked ones too, newest first. */
  listApiKeys(accountId: number): Promise<ApiKeyRecord[]>;
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

  // credits (changed only through TransactionStore.changeBalance)
  ledgerSum(accountId: number): Promise<number>;
  /** Up to `limit` ledger rows of the account with ids below `beforeId` (all when null), newest first. */
  ledgerPage(accountId: number, beforeId: number | null, limit: number): Promise<LedgerEntry[]>;

  // senders, templates, groups, blocklist
  createSender(input: {
    accountId: number;
    name: string;
    status: SenderStatus;
    nowMs: number;
  }): Promise<Sender>;
  shareSender(senderId: number, accountId: number, nowMs: number): Promise<void>;
  findSenderByName(name: string): Promise<Sender | null>;
  isSenderSharedWith(senderId: number, accountId: number): Promise<boolean>;
  listVisibleSenders(accountId: number): Promise<VisibleSender[]>;
  createTemplate(input: {
    accountId: number;
    name: string;
    body: string;
    nowMs: number;
  }): Promise<Template>;
  findTemplate(id: number): Promise<Template | null>;
  /** The account's templates, by name. */
  listTemplates(accountId: number): Promise<Template[]>;
  createContactGroup(input: {
    accountId: number;
    name: string;
    nowMs: number;
  }): Promise<ContactGroup>;
  addContacts(groupId: number, msisdns: readonly string[]): Promise<number>;
  findContactGroup(id: number): Promise<ContactGroup | null>;
  /** The account's contact groups, by name, with how many numbers each holds. */
  listContactGroups(accountId: number): Promise<(ContactGroup & { size: number })[]>;
  contactNumbers(groupId: number): Promise<string[]>;
  /**
   * How a group counts for a send, without reading its members: how many it has, and how many
   * of them are on the account's or the platform's blocklist (an entry in either form). Null
   * for a group that was ever given a member in another form than `66XXXXXXXXX` (which imports
   * never write): only reading its members tells how it counts.
   */
  contactGroupTally(
    groupId: number,
    accountId: number,
  ): Promise<{ members: number; blocked: number } | null>;
  addToBlocklist(
    scopeAccountId: number,
    msisdns: readonly string[],
    nowMs: number,
  ): Promise<number>;
  /** Blocked numbers for an account: its own list and the platform-wide one. */
  blockedNumbers(accountId: number): Promise<Set<string>>;

  // messages
  nextRefNo(accountId: number): Promise<number>;
  insertMessage(message: NewMessage): Promise<number>;
  findMessageByUuid(uuid: string): Promise<Message | null>;
  /** One account's messages, or every account's (null: an admin's view), newest first. */
  listMessages(
    accountId: number | null,
    query: MessageListQuery,
  ): Promise<{ items: Message[]; total: number }>;
  /** scheduled → cancelled, only if still scheduled; true when this call made the change. */
  cancelScheduledMessage(messageId: number, nowMs: number): Promise<boolean>;
  /** scheduled → pending for every message due at `nowMs`; returns their ids. */
  releaseDueMessages(nowMs: number): Promise<number[]>;
  claimIdempotencyKey(input: {
    accountId: number;
    key: string;
    requestHash: string;
    nowMs: number;
  }): Promise<IdempotencyClaim>;
  saveIdempotentResponse(
    accountId: number,
    key: string,
    messageId: number | null,
    body: string,
  ): Promise<void>;
  /** An account's committed use of an Idempotency-Key, or null when the key is unused. */
  findIdempotencyKey(
    accountId: number,
    key: string,
  ): Promise<{ readonly requestHash: string; readonly responseBody: string | null } | null>;

  // recipients
  setMessageCounts(messageId: number, counts: ReadonlyMap<RecipientStatus, number>): Promise<void>;
  loadCompactList(messageId: number): Promise<CompactRecipientList>;
  /** Per-status counts of the message with this uuid: keyed by uuid so it can go out with it. */
  messageCountsByUuid(uuid: string): Promise<Map<RecipientStatus, number>>;
  /**
   * Up to `limit` rows after `afterSeq` of the message with this uuid, and the
   * `materialised_upto` the same read saw (rows exist for every seq up to it); null when there
   * is no such message. Keyed by uuid so it can go out with the message's own read.
   */
  recipientPageByUuid(
    uuid: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ rows: RecipientRecord[]; materialisedUpto: number } | null>;
  /** Rows with `afterSeq < seq <= maxSeq` matching the query, by seq. */
  recipientRows(
    messageId: number,
    query: RecipientQuery & { afterSeq: number; maxSeq: number; limit: number },
  ): Promise<RecipientRecord[]>;
  countRecipientRows(
    messageId: number,
    query: RecipientQuery & { maxSeq: number },
  ): Promise<number>;
  /** The rows of these seqs (those that exist), by seq. */
  recipientsBySeq(messageId: number, seqs: readonly number[]): Promise<RecipientRecord[]>;
  unmaterialisedMessages(
    limit: number,
  ): Promise<Pick<Message, 'id' | 'recipientTotal' | 'materialisedUpto' | 'createdAt'>[]>;

  // people of the console (email lower-case: normaliseEmail)
  createUser(input: NewUser): Promise<User>;
  findUser(id: number): Promise<User | null>;
  findUserByEmail(email: string): Promise<User | null>;
  listUsers(query: { accountId?: number; role?: UserRole }): Promise<User[]>;
  updateUser(id: number, changes: UserChanges, nowMs: number): Promise<User | null>;
  /**
   * Records `step` as the user's last TOTP step if it is later than the one stored, in one
   * statement; false when it is not (the code was used already, here or in another process).
   */
  claimTotpStep(userId: number, step: number): Promise<boolean>;
  /**
   * Removes one recovery code's hash from the user's unused ones, compare-and-set (two
   * requests racing with one code: one wins); answers how many are left, or null when the
   * hash was not among them.
   */
  consumeRecoveryCode(userId: number, codeHash: string): Promise<number | null>;
  /** Whether every person of the account must sign in with TOTP; false when there is no such account. */
  setAccountRequireTotp(accountId: number, required: boolean): Promise<boolean>;

  // console sessions, by the hash of their cookie's value
  insertSession(session: SessionRecord): Promise<void>;
  findSession(idHash: string): Promise<SessionRecord | null>;
  touchSession(idHash: string, nowMs: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of a user; answers how many there were. */
  deleteUserSessions(userId: number): Promise<number>;
  /**
   * Deletes at most `limit` sessions idle since `lastSeenBefore` or begun before
   * `createdBefore` (both inclusive: a session is over at its limit); answers how many.
   */
  purgeSessions(
    cutoffs: { lastSeenBefore: number; createdBefore: number },
    limit: number,
  ): Promise<number>;

  /**
   * Throttling shared by every process (attempt-throttle.ts): counts one attempt of `scope` in
   * one statement, opening a new window of `windowMs` when none is open at `nowMs`; answers the
   * attempts in the window, this one included, and when it ends. Concurrent callers each get a
   * count of their own.
   */
  countAttempt(
    scope: string,
    windowMs: number,
    nowMs: number,
  ): Promise<{ attempts: number; expiresAt: number }>;
  /** Takes one attempt back from the window ending at `expiresAt`, if that window is still open. */
  uncountAttempt(scope: string, expiresAt: number): Promise<void>;
  /** Forgets the scope's attempts. */
  clearAttempts(scope: string): Promise<void>;
  /** Deletes at most `limit` windows ended by `nowMs`; answers how many. */
  purgeAttempts(nowMs: number, limit: number): Promise<number>;

  // the audit log (append-only: written through domain/audit/record-audit.ts)
  insertAuditEvent(event: AuditEventInput): Promise<void>;
  listAuditEvents(query: AuditQuery): Promise<{ items: AuditEvent[]; total: number }>;
  /** A page of the log by id, newest first, with each event's actor and account named. */
  auditEventsPage(query: AuditPageQuery): Promise<AuditEntry[]>;
}

/**
 * The store bound to one transaction, as `Store.transaction` hands it to its `work`: the only
 * place a balance can change. Once `work` has settled it refuses further balance changes, so a
 * store kept past its transaction cannot write one outside it either.
 */
export interface TransactionStore extends Store {
  /**
   * Adds `delta` to the balance and writes its ledger row (with the balance after) in this
   * transaction. A debit the balance does not cover changes nothing and answers null; otherwise
   * answers the balance after.
   */
  changeBalance(change: BalanceChange): Promise<number | null>;
  /**
   * Holds the account's row until this transaction ends, so that checks made after it over the
   * account's people (its last owner) cannot race another transaction doing the same.
   */
  lockAccount(accountId: number): Promise<void>;
}
