// The rules of a sender-name request that both the domain and the console's contract (and so
// the browser's forms) follow. It imports nothing, so the browser can bundle it; nothing else
// may write these lists or limits a second time.

/** What the sender will send; a reviewer weighs the documents against it. */
export const SENDER_PURPOSES = ['otp', 'transactional', 'marketing'] as const;
export type SenderPurpose = (typeof SENDER_PURPOSES)[number];

/**
 * Where a request stands. `pending`: waiting for a reviewer (submitted or resubmitted);
 * `changes_requested`: back with the owner, who may resubmit; `approved` and `rejected` are
 * final.
 */
export const SENDER_REQUEST_STATUSES = [
  'pending',
  'changes_requested',
  'approved',
  'rejected',
] as const;
export type SenderRequestStatus = (typeof SENDER_REQUEST_STATUSES)[number];

/** The steps of a request's history, each kept with who took it and when. */
export const SENDER_REQUEST_STEPS = [
  'submitted',
  'changes_requested',
  'resubmitted',
  'approved',
  'rejected',
] as const;
export type SenderRequestStep = (typeof SENDER_REQUEST_STEPS)[number];

/** A reviewer's decision on a pending request. */
export const SENDER_REVIEW_DECISIONS = ['approve', 'reject', 'request_changes'] as const;
export type SenderReviewDecision = (typeof SENDER_REVIEW_DECISIONS)[number];

export const MIN_SAMPLE_MESSAGES = 1;
export const MAX_SAMPLE_MESSAGES = 5;
export const MAX_SAMPLE_MESSAGE_CHARS = 1000;
export const MAX_REGISTRATION_NUMBER_CHARS = 40;
/** A company registration number: letters and digits, with spaces, dots, dashes or slashes. */
export const REGISTRATION_NUMBER_SHAPE = /^[A-Za-z0-9](?:[A-Za-z0-9 ./-]*[A-Za-z0-9])?$/;
export const MAX_REVIEW_NOTE_CHARS = 2000;
export const MAX_DOCUMENT_NAME_CHARS = 200;

/**
 * The largest document, each, unless the operator sets another (NOK_SENDER_DOCUMENT_MAX_BYTES,
 * 1 KiB to 100 MiB): 10 MiB.
 */
export const DEFAULT_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES_RANGE = { min: 1024, max: 100 * 1024 * 1024 } as const;

/** Documents one submission (or resubmission) may carry, and a request in all. */
export const MAX_DOCUMENTS_PER_SUBMISSION = 10;
export const MAX_DOCUMENTS_PER_REQUEST = 30;

/**
 * The document types accepted, as their bytes show them, with the file-name extensions that
 * may carry each: a file whose name or declared type says otherwise is refused as mismatched.
 */
export const DOCUMENT_TYPES = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
} as const satisfies Record<string, readonly string[]>;
export type DocumentType = keyof typeof DOCUMENT_TYPES;
