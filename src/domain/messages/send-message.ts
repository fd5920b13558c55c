import { randomUUID } from 'node:crypto';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { BalanceWriter } from '../credits/ledger-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { RecipientListsStore } from '../recipients/recipient-lists-store.js';
import type { Transactor } from '../transactor.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { MessageStore } from './message-store.js';
import type { SendRequest } from './send-request.js';
import { uploadedListGone } from '../recipients/recipient-lists.js';
import type { MessageStatus, RecipientStatus } from '../statuses.js';
import { prepareSend, type PreparedPreview, type SendReads } from './prepare-send.js';

export interface SendCommand {
  readonly accountId: number;
  readonly apiKeyId: number | null;
  /**
   * The request, parsed by its schema when it is judged: a key used before answers first (422
   * for another body, the first answer for the same), whatever the fields of this one hold.
   */
  readonly request: () => SendRequest;
  readonly idempotency?: { readonly key: string; readonly requestHash: string };
  /**
   * Who sends from the console: the send is written to the audit log with its message, as an
   * API key's send carries `apiKeyId`.
   */
  readonly actor?: AuditActor;
  /**
   * The uploaded list `numbers` came from (ADR 0034): the send deletes it in its own
   * transaction, so a list is sent once, whichever process serves a second confirmation.
   */
  readonly recipientListId?: string;
}

export interface RecipientTally {
  readonly requested: number;
  readonly unique: number;
  readonly duplicates: number;
  readonly valid: number;
  readonly invalid: number;
  readonly blocked: number;
  readonly charged: number;
}

/** What an accepted send answers; stored as is for Idempotency-Key replays. */
export interface SendAccepted {
  readonly uuid: string;
  readonly refNo: string;
  readonly status: MessageStatus;
  readonly sender: string;
  readonly parts: number;
  readonly characters: number;
  readonly scheduledAt: number | null;
  readonly createdAt: number;
  readonly recipients: RecipientTally;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly balance: number;
}

export interface CostEstimate {
  readonly parts: number;
  readonly characters: number;
  readonly recipients: RecipientTally;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly balance: number;
  readonly sufficientCredits: boolean;
}

export type SendOutcome =
  | { readonly kind: 'accepted'; readonly result: SendAccepted; readonly replayed: boolean }
  | { readonly kind: 'dry-run'; readonly estimate: CostEstimate };

/**
 * Accepts a send: in ONE transaction it claims the idempotency key, stores the message with its
 * compact recipient list and per-status counters, and debits the credits (a hold, for a
 * scheduled message). Either all of it is durable before the caller answers, or none of it.
 */
export async function sendMessage(
  store: SendReads &
    IdempotencyStore &
    Transactor<MessageStore & IdempotencyStore & RecipientListsStore & AuditStore & BalanceWriter>,
  command: SendCommand,
  nowMs: number,
): Promise<SendOutcome> {
  const { accountId, idempotency } = command;
  // A retry replays the first answer whatever changed since (its scheduledTime passed, its sender
  // was suspended), so the rules below only judge a key's first use. The claim in the
  // transaction still settles concurrent first uses.
  if (idempotency) {
    const earlier = await store.findIdempotencyKey(accountId, idempotency.key);
    if (earlier) return replay(earlier.requestHash, earlier.responseBody, idempotency.requestHash);
  }
  const prepared = await prepareSend(store, accountId, command.request(), nowMs);
  if (prepared.dryRun) return { kind: 'dry-run', estimate: toEstimate(prepared) };

  const r = prepared.recipients;
  const status: MessageStatus =
    prepared.scheduledAt !== null ? 'scheduled' : r.charged === 0 ? 'failed' : 'pending';

  return store.transaction(async (tx) => {
    const listId = command.recipientListId;
    if (listId !== undefined && !(await tx.deleteRecipientList(listId, accountId))) {
      throw uploadedListGone();
    }
    if (idempotency) {
      const claim = await tx.claimIdempotencyKey({ accountId, ...idempotency, nowMs });
      if (!claim.claimed)
        return replay(claim.requestHash, claim.responseBody, idempotency.requestHash);
    }
    const refNo = formatRefNo(await tx.nextRefNo(accountId));
    const uuid = randomUUID();
    const messageId = await tx.insertMessage({
      uuid,
      accountId,
      apiKeyId: command.apiKeyId,
      refNo,
      sender: prepared.sender,
      content: prepared.content,
      parts: prepared.parts,
      status,
      scheduledAt: prepared.scheduledAt,
      createdAt: nowMs,
      completedAt: status === 'failed' ? nowMs : null,
      requestedCount: r.requested,
      duplicateCount: r.duplicates,
      recipientTotal: r.valid + r.invalid,
      validCount: r.valid,
      invalidCount: r.invalid,
      blockedCount: r.blocked,
      chargedCount: r.charged,
      pricePerPart: prepared.pricePerPart,
      cost: prepared.cost,
      recipients: r.list,
    });
    let balance = prepared.balance;
    if (prepared.cost > 0) {
      const after = await tx.changeBalance({
        accountId,
        delta: -prepared.cost,
        reason: prepared.scheduledAt !== null ? 'hold' : 'send',
        messageId,
        nowMs,
      });
      if (after === null) throw insufficientCredits(prepared.cost);
      balance = after;
    }
    await tx.setMessageCounts(messageId, initialCounts(r));
    if (command.actor) {
      await recordAudit(tx, {
        ...command.actor,
        accountId,
        action: 'message.send',
        targetType: 'message',
        targetId: uuid,
        detail: {
          refNo,
          sender: prepared.sender,
          recipients: r.charged,
          cost: prepared.cost,
          scheduled: prepared.scheduledAt !== null,
        },
        at: nowMs,
      });
    }
    const result: SendAccepted = {
      uuid,
      refNo,
      status,
      sender: prepared.sender,
      parts: prepared.parts,
      characters: prepared.characters,
      scheduledAt: prepared.scheduledAt,
      createdAt: nowMs,
      recipients: tally(r),
      pricePerPart: prepared.pricePerPart,
      cost: prepared.cost,
      balance,
    };
    if (idempotency)
      await tx.saveIdempotentResponse(
        accountId,
        idempotency.key,
        messageId,
        JSON.stringify(result),
      );
    return { kind: 'accepted', result, replayed: false } as const;
  });
}

export function toEstimate(prepared: PreparedPreview): CostEstimate {
  return {
    parts: prepared.parts,
    characters: prepared.characters,
    recipients: tally(prepared.recipients),
    pricePerPart: prepared.pricePerPart,
    cost: prepared.cost,
    balance: prepared.balance,
    sufficientCredits: prepared.balance >= prepared.cost,
  };
}

function tally(r: PreparedPreview['recipients']): RecipientTally {
  return {
    requested: r.requested,
    unique: r.valid + r.invalid,
    duplicates: r.duplicates,
    valid: r.valid,
    invalid: r.invalid,
    blocked: r.blocked,
    charged: r.charged,
  };
}

function initialCounts(r: PreparedPreview['recipients']): Map<RecipientStatus, number> {
  return new Map<RecipientStatus, number>([
    ['pending', r.charged],
    ['blocked', r.blocked],
    ['invalid', r.invalid],
  ]);
}

function replay(storedHash: string, storedBody: string | null, requestHash: string): SendOutcome {
  if (storedHash !== requestHash || storedBody === null) {
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request; use a new key for a new request',
    );
  }
  return { kind: 'accepted', result: JSON.parse(storedBody) as SendAccepted, replayed: true };
}

function insufficientCredits(cost: number): DomainError {
  return new DomainError(
    'INSUFFICIENT_CREDITS',
    `Not enough credits: this send costs ${cost}; top up credits and retry`,
  );
}

/** A short per-account reference, increasing with time: M000001, M000002, … */
export function formatRefNo(n: number): string {
  return `M${String(n).padStart(6, '0')}`;
}
