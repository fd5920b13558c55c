import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { SenderStore } from './sender-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import { checkDocument, type CheckedDocument, type UploadedDocument } from './check-document.js';
import { checkRequestDetails } from './check-request-details.js';
import { checkSenderName } from './sender-name.js';
import { MAX_DOCUMENTS_PER_SUBMISSION } from './sender-request-rules.js';
import type {
  SenderRequest,
  SenderRequestDetails,
  SenderRequestEvent,
  SenderRequestStore,
} from './sender-request-store.js';

export interface SubmitSenderRequestInput {
  readonly accountId: number;
  /** The owner asking; null for the operator's command line. */
  readonly actorUserId: number | null;
  /** Where the request came from, for the audit log. */
  readonly ip: string | null;
  readonly name: string;
  readonly details: SenderRequestDetails;
  readonly documents: readonly UploadedDocument[];
  /** The setting NOK_SENDER_DOCUMENT_MAX_BYTES. */
  readonly maxDocumentBytes: number;
  readonly nowMs: number;
}

export interface SenderRequestStep {
  readonly request: SenderRequest;
  readonly event: SenderRequestEvent;
}

/**
 * Asks for a sender name: stores the request (pending review), its first history step and its
 * documents in one transaction, or nothing. Every document is checked by its bytes first; a
 * name another account holds, or that an open request already asks for, is refused.
 */
export async function submitSenderRequest(
  store: Transactor<AccountStore & SenderStore & SenderRequestStore & AuditStore>,
  input: SubmitSenderRequestInput,
): Promise<SenderRequestStep> {
  const name = checkSenderName(input.name);
  const details = checkRequestDetails(input.details);
  if (input.documents.length === 0) {
    throw invalidParameter(
      'attach at least one document (PDF, PNG or JPEG) that shows the company',
    );
  }
  const documents = await checkDocuments(input.documents, input.maxDocumentBytes);

  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    const existing = await tx.findSenderByName(name);
    if (existing && existing.accountId !== input.accountId) {
      throw new DomainError(
        'SENDER_NAME_TAKEN',
        `sender name ${name} belongs to another account; choose another name`,
      );
    }
    if (existing && (existing.status === 'approved' || existing.status === 'suspended')) {
      throw new DomainError(
        'SENDER_NAME_TAKEN',
        `sender name ${name} is already yours (${existing.status})`,
      );
    }
    const request = await tx.insertSenderRequest({
      accountId: input.accountId,
      name,
      details,
      nowMs: input.nowMs,
    });
    if (!request) {
      throw new DomainError(
        'SENDER_NAME_TAKEN',
        `a request for sender name ${name} is already under review`,
      );
    }
    const event = await tx.addSenderRequestEvent({
      requestId: request.id,
      step: 'submitted',
      actorUserId: input.actorUserId,
      note: null,
      nowMs: input.nowMs,
    });
    await storeDocuments(tx, request.id, event.id, documents, input.nowMs);
    await recordAudit(tx, {
      actorUserId: input.actorUserId,
      accountId: input.accountId,
      action: 'sender-request.submit',
      targetType: 'sender_request',
      targetId: request.id,
      detail: { name, purpose: details.purpose, documents: documents.length },
      ip: input.ip,
      at: input.nowMs,
    });
    return { request, event };
  });
}

/** Checks each document by its bytes, in order; the first bad one refuses them all. */
export async function checkDocuments(
  documents: readonly UploadedDocument[],
  maxBytes: number,
): Promise<CheckedDocument[]> {
  if (documents.length > MAX_DOCUMENTS_PER_SUBMISSION) {
    throw invalidParameter(
      `attach at most ${MAX_DOCUMENTS_PER_SUBMISSION} documents at a time; got ${documents.length}`,
    );
  }
  const checked: CheckedDocument[] = [];
  for (const document of documents) checked.push(await checkDocument(document, maxBytes));
  return checked;
}

export async function storeDocuments(
  tx: SenderRequestStore,
  requestId: number,
  eventId: number,
  documents: readonly CheckedDocument[],
  nowMs: number,
): Promise<void> {
  for (const document of documents) {
    await tx.addSenderDocument({ requestId, eventId, ...document, nowMs });
  }
}
