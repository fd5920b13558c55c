/** One part of one recipient, as the dispatcher hands it to a carrier. */
export interface OutgoingPart {
  readonly messageId: number;
  readonly sender: string;
  readonly content: string;
  /** International form, 66XXXXXXXXX. */
  readonly msisdn: string;
  /** 0-based index among the content's parts (message-parts.ts). */
  readonly part: number;
}

/**
 * What a carrier made of a part. A refusal carries `code`, short and stable for metrics: the
 * SMPP command_status in hex (`0x00000058`), or `timeout`, `closed`, `down`, `encoding`.
 */
export type SubmitAnswer =
  | { readonly kind: 'accepted'; readonly smscId: string }
  /** Refused for now (throttled, queue full, a lost bind, no answer): retry later. */
  | { readonly kind: 'retry'; readonly error: string; readonly code: string }
  /** Refused for good: the number is wrong. */
  | { readonly kind: 'invalid'; readonly error: string; readonly code: string }
  /** Refused for good: the message would be refused again. */
  | { readonly kind: 'failed'; readonly error: string; readonly code: string }
  /** The carrier cannot take anything now (no bind up): the next carrier of the route may. */
  | { readonly kind: 'down'; readonly error: string; readonly code: string };

/**
 * A carrier as the dispatcher sees it; carriers/ adapts SMPP binds to it. `submit` never
 * rejects: every failure is an answer.
 */
export interface CarrierPort {
  readonly name: string;
  submit(part: OutgoingPart): Promise<SubmitAnswer>;
}

/** The carriers to try for a number, in failover order; empty when no carrier takes it. */
export type Router = (msisdn: string) => readonly CarrierPort[];
