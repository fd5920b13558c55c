import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { UploadedDocument } from './check-document.js';
import { checkRequestDetails } from './check-request-details.js';
import { requireOwnRequest } from './read-sender-requests.js';
import { MAX_DOCUMENTS_PER_REQUEST } from './sender-request-rules.js';
import type { SenderRequestDetails, SenderRequestStore } from './sender-request-store.js';
import { checkDocuments, storeDocuments, type SenderRequestStep } from './submit-sender-request.js';

export interface ResubmitSenderRequestInput {
  readonly requestId: number;
  readonly accountId: number;
  readonly actorUserId: number | null;
  readonly ip: string | null;
  readonly details: SenderRequestDetails;
  /** New documents, added to those already sent (none are removed: the history keeps them). */
  readonly documents: readonly UploadedDocument[];
  readonly maxDocumentBytes: number;
  readonly nowMs: number;
}

/**
 * Sends a request back for review after a reviewer asked for changes: new details, perhaps
 * more documents, and a `resubmitted` step, in one transaction. The name stays; a different
 * name is a new request.
 */
export async function resubmitSenderRequest(
  store: Transactor<SenderRequestStore & AuditStore>,
  input: ResubmitSenderRequestInput,
): Promise<SenderRequestStep> {
  const details = checkRequestDetails(input.details);
  const documents = await checkDocuments(input.documents, input.maxDocumentBytes);

  return store.transaction(async (tx) => {
    const current = await requireOwnRequest(tx, input.accountId, input.requestId);
    const held = (await tx.senderDocuments(current.id)).length;
    if (held + documents.length > MAX_DOCUMENTS_PER_REQUEST) {
      throw invalidParameter(
        `a request holds at most ${MAX_DOCUMENTS_PER_REQUEST} documents; this one has ${held}`,
      );
    }
    const moved = await tx.moveSenderRequest({
      id: current.id,
      from: 'changes_requested',
      to: 'pending',
      details,
      nowMs: input.nowMs,
    });
    if (!moved) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `request ${current.id} is ${current.status.replace('_', ' ')}; only a request sent back for changes can be resubmitted`,
      );
    }
    const event = await tx.addSenderRequestEvent({
      requestId: current.id,
      step: 'resubmitted',
      actorUserId: input.actorUserId,
      note: null,
      nowMs: input.nowMs,
    });
    await storeDocuments(tx, current.id, event.id, documents, input.nowMs);
    await recordAudit(tx, {
      actorUserId: input.actorUserId,
      accountId: current.accountId,
      action: 'sender-request.resubmit',
      targetType: 'sender_request',
      targetId: current.id,
      detail: { name: current.name, documents: documents.length },
      ip: input.ip,
      at: input.nowMs,
    });
    const request = (await tx.findSenderRequest(current.id))!;
    return { request, event };
  });
}
