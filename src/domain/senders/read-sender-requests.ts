import { DomainError } from '../errors.js';
import type { Sender } from './sender-store.js';
import type {
  SenderDocument,
  SenderDocumentInfo,
  SenderRequest,
  SenderRequestEvent,
  SenderRequestStore,
} from './sender-request-store.js';

/** Who is looking: a customer account's user, or platform staff (every account). */
export type SenderRequestViewer =
  { readonly admin: true } | { readonly admin: false; readonly accountId: number };

export interface SenderRequestView {
  readonly request: SenderRequest;
  readonly history: readonly SenderRequestEvent[];
  readonly documents: readonly SenderDocumentInfo[];
  /** The sender its approval made, with the accounts it is shared with. */
  readonly sender: (Sender & { readonly sharedWith: readonly number[] }) | null;
}

const LIST_LIMIT = 500;

/** An account's requests, newest first. */
export function listAccountSenderRequests(
  store: SenderRequestStore,
  accountId: number,
): Promise<SenderRequest[]> {
  return store.listSenderRequests({ accountId, limit: LIST_LIMIT });
}

/** Requests waiting for a reviewer, the longest waiting first. */
export function listReviewQueue(store: SenderRequestStore): Promise<SenderRequest[]> {
  return store.listSenderRequests({ statuses: ['pending'], limit: LIST_LIMIT });
}

/** Every request of every account, newest first (the admin's full list). */
export function listAllSenderRequests(store: SenderRequestStore): Promise<SenderRequest[]> {
  return store.listSenderRequests({ limit: LIST_LIMIT });
}

/** A request with its history and documents, for its own account or an admin. */
export async function getSenderRequest(
  store: SenderRequestStore,
  viewer: SenderRequestViewer,
  requestId: number,
): Promise<SenderRequestView> {
  const request = await requireVisibleRequest(store, viewer, requestId);
  const [history, documents, sender] = await Promise.all([
    store.senderRequestEvents(request.id),
    store.senderDocuments(request.id),
    request.senderId === null ? null : store.findSender(request.senderId),
  ]);
  const sharedWith = sender ? await store.senderShares(sender.id) : [];
  return { request, history, documents, sender: sender ? { ...sender, sharedWith } : null };
}

/** A document's bytes, for the request's own account or an admin; another account gets 403. */
export async function getSenderDocument(
  store: SenderRequestStore,
  viewer: SenderRequestViewer,
  documentId: number,
): Promise<SenderDocument> {
  const document = await store.findSenderDocument(documentId);
  if (!document) throw new DomainError('NOT_FOUND', `document ${documentId} does not exist`);
  await requireVisibleRequest(store, viewer, document.requestId);
  return document;
}

/** The request if the account owns it: NOT_FOUND when there is none, FORBIDDEN when another's. */
export async function requireOwnRequest(
  store: SenderRequestStore,
  accountId: number,
  requestId: number,
): Promise<SenderRequest> {
  return requireVisibleRequest(store, { admin: false, accountId }, requestId);
}

async function requireVisibleRequest(
  store: SenderRequestStore,
  viewer: SenderRequestViewer,
  requestId: number,
): Promise<SenderRequest> {
  const request = await store.findSenderRequest(requestId);
  if (!request) throw new DomainError('NOT_FOUND', `sender request ${requestId} does not exist`);
  if (!viewer.admin && request.accountId !== viewer.accountId) {
    throw new DomainError('FORBIDDEN', `sender request ${requestId} belongs to another account`);
  }
  return request;
}
