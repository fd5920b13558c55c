import type { z } from 'zod';
import type { VisibleSender } from '../../domain/senders/sender-store.js';
import type { SenderRequestView } from '../../domain/senders/read-sender-requests.js';
import type { SenderRequest } from '../../domain/senders/sender-request-store.js';
import type {
  senderRequestDetailSchema,
  senderRequestSummarySchema,
  senderSchema,
} from './contract/senders.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a document is opened: the console API route that serves it as an attachment. */
export const documentUrl = (id: number) => `/console/api/sender-documents/${id}`;

export function presentSender(sender: VisibleSender): z.infer<typeof senderSchema> {
  return {
    id: sender.id,
    name: sender.name,
    status: sender.status,
    shared: sender.shared,
    createdAt: iso(sender.createdAt),
  };
}

export function presentRequestSummary(
  request: SenderRequest,
): z.infer<typeof senderRequestSummarySchema> {
  return {
    id: request.id,
    accountId: request.accountId,
    name: request.name,
    purpose: request.purpose,
    status: request.status,
    createdAt: iso(request.createdAt),
    updatedAt: iso(request.updatedAt),
    decidedAt: request.decidedAt === null ? null : iso(request.decidedAt),
  };
}

/** `names` gives the display name of each user who took a step (null when unknown). */
export function presentRequestDetail(
  view: SenderRequestView,
  names: ReadonlyMap<number, string | null> = new Map(),
): z.infer<typeof senderRequestDetailSchema> {
  return {
    ...presentRequestSummary(view.request),
    sampleMessages: [...view.request.sampleMessages],
    registrationNumber: view.request.registrationNumber,
    history: view.history.map((event) => ({
      id: event.id,
      step: event.step,
      actor:
        event.actorUserId === null
          ? null
          : { id: event.actorUserId, name: names.get(event.actorUserId) ?? null },
      note: event.note,
      at: iso(event.createdAt),
    })),
    documents: view.documents.map((document) => ({
      id: document.id,
      fileName: document.fileName,
      contentType: document.contentType,
      sizeBytes: document.sizeBytes,
      sha256: document.sha256,
      stepId: document.eventId,
      uploadedAt: iso(document.createdAt),
      url: documentUrl(document.id),
    })),
    sender: view.sender
      ? {
          id: view.sender.id,
          name: view.sender.name,
          status: view.sender.status,
          sharedWith: [...view.sender.sharedWith],
        }
      : null,
  };
}

/**
 * `Content-Disposition: attachment` for a stored file name: a plain-ASCII `filename` for old
 * clients and the exact name in `filename*` (RFC 6266, RFC 8187). Quotes, backslashes and
 * control characters never reach the header.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
