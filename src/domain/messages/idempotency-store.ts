export type IdempotencyClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly requestHash: string; readonly responseBody: string | null };

/** `Idempotency-Key`s of sends (ADR 0006): claimed and answered in the send's transaction. */
export interface IdempotencyStore {
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
}
