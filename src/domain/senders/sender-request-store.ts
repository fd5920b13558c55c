import type { Sender } from './sender-store.js';
import type { SenderStatus } from '../statuses.js';
import type {
  DocumentType,
  SenderPurpose,
  SenderRequestStatus,
  SenderRequestStep,
} from './sender-request-rules.js';

/** What an owner asks for: a sender name, with what it is for and who the company is. */
export interface SenderRequestDetails {
  readonly purpose: SenderPurpose;
  readonly sampleMessages: readonly string[];
  readonly registrationNumber: string;
}

export interface SenderRequest extends SenderRequestDetails {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly status: SenderRequestStatus;
  /** The sender the approval made; null until then. */
  readonly senderId: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When it was approved or rejected; null while it is open. */
  readonly decidedAt: number | null;
}

/** One step of a request's history. */
export interface SenderRequestEvent {
  readonly id: number;
  readonly requestId: number;
  readonly step: SenderRequestStep;
  /** The user who took the step (null for the operator's command line). */
  readonly actorUserId: number | null;
  /** The reviewer's note (changes requested, rejected, or with an approval). */
  readonly note: string | null;
  readonly createdAt: number;
}

/** A document as lists show it, without its bytes. */
export interface SenderDocumentInfo {
  readonly id: number;
  readonly requestId: number;
  /** The submission or resubmission it came with. */
  readonly eventId: number;
  readonly fileName: string;
  /** Decided from the bytes, never from the name or the declared type. */
  readonly contentType: DocumentType;
  readonly sizeBytes: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly createdAt: number;
}

export interface SenderDocument extends SenderDocumentInfo {
  readonly content: Uint8Array;
}

export interface SenderRequestQuery {
  readonly accountId?: number;
  readonly statuses?: readonly SenderRequestStatus[];
  readonly limit: number;
}

/** What the sender-request use cases ask of storage. */
export interface SenderRequestStore {
  /**
   * Stores a new request, status `pending`. Null, storing nothing, when another open request
   * (pending or changes requested) already asks for the same name.
   */
  insertSenderRequest(input: {
    accountId: number;
    name: string;
    details: SenderRequestDetails;
    nowMs: number;
  }): Promise<SenderRequest | null>;
  findSenderRequest(id: number): Promise<SenderRequest | null>;
  /** Newest first, or, for `statuses` of open requests, the longest waiting first. */
  listSenderRequests(query: SenderRequestQuery): Promise<SenderRequest[]>;
  /**
   * Moves a request from `from` to `to` (with new details on a resubmission, the sender on an
   * approval); true when this call made the change, false when it was no longer at `from`,
   * so that of two reviewers deciding at once exactly one wins.
   */
  moveSenderRequest(input: {
    id: number;
    from: SenderRequestStatus;
    to: SenderRequestStatus;
    details?: SenderRequestDetails;
    senderId?: number;
    nowMs: number;
  }): Promise<boolean>;
  addSenderRequestEvent(input: {
    requestId: number;
    step: SenderRequestStep;
    actorUserId: number | null;
    note: string | null;
    nowMs: number;
  }): Promise<SenderRequestEvent>;
  senderRequestEvents(requestId: number): Promise<SenderRequestEvent[]>;
  addSenderDocument(input: {
    requestId: number;
    eventId: number;
    fileName: string;
    contentType: DocumentType;
    sha256: string;
    content: Uint8Array;
    nowMs: number;
  }): Promise<SenderDocumentInfo>;
  senderDocuments(requestId: number): Promise<SenderDocumentInfo[]>;
  findSenderDocument(id: number): Promise<SenderDocument | null>;

  findSender(id: number): Promise<Sender | null>;
  /**
   * Makes `name` an approved sender of the account: a new sender, or the account's own sender
   * of that name (one the operator registered) set to approved. Null, changing nothing, when
   * another account holds the name.
   */
  approveSenderName(input: {
    accountId: number;
    name: string;
    nowMs: number;
  }): Promise<Sender | null>;
  /** Sets a sender's status if it is one of `from`; true when this call changed it. */
  setSenderStatus(input: {
    senderId: number;
    from: readonly SenderStatus[];
    to: SenderStatus;
    nowMs: number;
  }): Promise<boolean>;
  unshareSender(senderId: number, accountId: number): Promise<boolean>;
  /** The accounts a sender is shared with, by id. */
  senderShares(senderId: number): Promise<number[]>;
  /**
   * Every sender of the platform, oldest first, a page at a time: found by a part of the name
   * (any case) and by status, each with its account and the accounts it is shared with.
   */
  listAllSenders(query: {
    search?: string;
    status?: SenderStatus;
    offset: number;
    limit: number;
  }): Promise<{ items: ManagedSender[]; total: number }>;
}

/** A sender as an admin manages it: whose it is, and with whom it is shared. */
export interface ManagedSender extends Sender {
  readonly accountName: string;
  readonly sharedWith: readonly { readonly id: number; readonly name: string }[];
}
