import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors.js';
import type { Transactor } from '../transactor.js';
import type { RecipientListsStore } from './recipient-lists-store.js';
import type { NumberList } from './number-list.js';

/** How uploaded lists are kept. */
export interface RecipientListLimits {
  /** How long a list stays after its upload (it is sent within minutes, or uploaded again). */
  readonly ttlMs: number;
  /** Lists an account may hold at once; an upload beyond it drops the account's oldest. */
  readonly perAccount: number;
}

export const DEFAULT_RECIPIENT_LIST_LIMITS: RecipientListLimits = {
  ttlMs: 60 * 60_000,
  perAccount: 3,
};

/** Decoded lists a process keeps at hand: a two-million-number list is 8 MB. */
const CACHED_LISTS = 2;

/** What an upload counted, line by line, before the send path joins it with anything else. */
export interface RecipientListSummary {
  readonly id: string;
  /** Numbers as read from the file (header and blank lines not counted). */
  readonly requested: number;
  readonly valid: number;
  readonly invalid: number;
  readonly duplicates: number;
  readonly expiresAt: number;
}

/** The answer for a list that is not (or no longer) there. */
export function uploadedListGone(): DomainError {
  return new DomainError(
    'NOT_FOUND',
    'This uploaded list is unknown, was sent already or has expired; upload the file again',
  );
}

/**
 * Numbers uploaded from the console, stored in the database as the send path's own `NumberList`
 * (valid numbers packed as a message's compact list packs them: 8 MB for two million) under a
 * random id that only their account can name, for a short while, so that any api process serves
 * the dry run and the send that name it. A send takes its list in its own transaction (see
 * `sendMessage`'s `recipientListId`), so a list is sent once. See ADR 0034.
 *
 * A stored list never changes, so this process keeps the last few it stored or read, decoded;
 * whether a list is still there, and whose, is asked of the store every time.
 */
export class RecipientLists {
  private readonly decoded = new Map<string, NumberList>();

  constructor(
    private readonly store: RecipientListsStore & Transactor<RecipientListsStore>,
    private readonly limits: RecipientListLimits = DEFAULT_RECIPIENT_LIST_LIMITS,
  ) {}

  /** Stores an upload for the account; beyond its limit, the account's oldest lists go. */
  async keep(accountId: number, numbers: NumberList, nowMs: number): Promise<RecipientListSummary> {
    const id = randomUUID();
    const expiresAt = nowMs + this.limits.ttlMs;
    await this.store.transaction(async (tx) => {
      await tx.insertRecipientList({ uuid: id, accountId, numbers, createdAt: nowMs, expiresAt });
      await tx.trimRecipientLists(accountId, this.limits.perAccount);
    });
    this.remember(id, numbers);
    return {
      id,
      requested: numbers.requested,
      valid: numbers.valid.length,
      invalid: numbers.invalid.length,
      duplicates: numbers.duplicates,
      expiresAt,
    };
  }

  /** The account's list `id`; refused when it is another account's, expired or unknown. */
  async read(accountId: number, id: string, nowMs: number): Promise<NumberList> {
    const stored = await this.store.findRecipientList(id);
    if (!stored || stored.expiresAt <= nowMs) throw uploadedListGone();
    if (stored.accountId !== accountId) {
      throw new DomainError('FORBIDDEN', 'This uploaded list belongs to another account');
    }
    const held = this.decoded.get(id);
    if (held) {
      this.decoded.delete(id);
      this.decoded.set(id, held);
      return held;
    }
    const numbers = await this.store.loadRecipientListNumbers(id);
    if (!numbers) throw uploadedListGone();
    return this.remember(id, numbers);
  }

  /** Drops this process's copy of a list once it was sent. */
  forget(id: string): void {
    this.decoded.delete(id);
  }

  private remember(id: string, numbers: NumberList): NumberList {
    this.decoded.set(id, numbers);
    if (this.decoded.size > CACHED_LISTS) this.decoded.delete(this.decoded.keys().next().value!);
    return numbers;
  }
}
