import type { WebhookOutboxWriter } from '../webhooks/webhook-store.js';
import type { Transactor } from '../transactor.js';
import type { SenderRequestStore } from './sender-request-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import {
  MAX_REVIEW_NOTE_CHARS,
  type SenderRequestStatus,
  type SenderRequestStep as Step,
  type SenderReviewDecision,
} from './sender-request-rules.js';
import type { SenderRequestStep } from './submit-sender-request.js';
import { countCharacters } from '../limits.js';

export interface ReviewSenderRequestInput {
  readonly requestId: number;
  /** The platform admin deciding. */
  readonly actorUserId: number | null;
  readonly ip: string | null;
  readonly decision: SenderReviewDecision;
  /** Required when rejecting or asking for changes: the owner reads it. */
  readonly note?: string | null;
  readonly nowMs: number;
}

const OUTCOME: Record<
  SenderReviewDecision,
  { status: Exclude<SenderRequestStatus, 'pending'>; step: Step }
> = {
  approve: { status: 'approved', step: 'approved' },
  reject: { status: 'rejected', step: 'rejected' },
  request_changes: { status: 'changes_requested', step: 'changes_requested' },
};

/**
 * A reviewer's decision on a pending request, in one transaction with its history step. An
 * approval makes the name an approved sender of the account, usable on /api/v2 at once. Of two
 * reviewers deciding at once, exactly one wins; the other is told the request moved on.
 */
export async function reviewSenderRequest(
  store: Transactor<SenderRequestStore & AuditStore & WebhookOutboxWriter>,
  input: ReviewSenderRequestInput,
): Promise<SenderRequestStep> {
  const note = input.note?.trim() || null;
  if (note === null && input.decision !== 'approve') {
    throw invalidParameter(
      'write a note for the owner: what to change, or why the name is refused',
    );
  }
  if (note !== null && countCharacters(note) > MAX_REVIEW_NOTE_CHARS) {
    throw invalidParameter(`a note has at most ${MAX_REVIEW_NOTE_CHARS} characters`);
  }
  const outcome = OUTCOME[input.decision];

  return store.transaction(async (tx) => {
    const current = await tx.findSenderRequest(input.requestId);
    if (!current)
      throw new DomainError('NOT_FOUND', `sender request ${input.requestId} does not exist`);
    let senderId: number | undefined;
    if (input.decision === 'approve' && current.status === 'pending') {
      const sender = await tx.approveSenderName({
        accountId: current.accountId,
        name: current.name,
        nowMs: input.nowMs,
      });
      if (!sender) {
        throw new DomainError(
          'SENDER_NAME_TAKEN',
          `sender name ${current.name} now belongs to another account; reject this request`,
        );
      }
      senderId = sender.id;
    }
    const moved = await tx.moveSenderRequest({
      id: current.id,
      from: 'pending',
      to: outcome.status,
      senderId,
      nowMs: input.nowMs,
    });
    if (!moved) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `request ${current.id} is ${current.status.replace('_', ' ')}, not waiting for review`,
      );
    }
    const event = await tx.addSenderRequestEvent({
      requestId: current.id,
      step: outcome.step,
      actorUserId: input.actorUserId,
      note,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      actorUserId: input.actorUserId,
      accountId: current.accountId,
      action: `sender-request.${input.decision.replace('_', '-')}`,
      targetType: 'sender_request',
      targetId: current.id,
      detail: { name: current.name, note, ...(senderId !== undefined ? { senderId } : {}) },
      ip: input.ip,
      at: input.nowMs,
    });
    await tx.addWebhookOutbox(
      current.accountId,
      { kind: 'sender.reviewed', payload: { name: current.name, decision: outcome.status, note } },
      input.nowMs,
    );
    const request = (await tx.findSenderRequest(current.id))!;
    return { request, event };
  });
}
