import type { RecipientStatus } from '../statuses.js';
import type { Message } from '../messages/message-store.js';
import type { WebhookEventType } from './event-types.js';

/**
 * What an outbox row says happened, by kind (docs/adr/0049). Rows are written in the transaction
 * of their cause and carry what the fan-out needs to render each event's data: the final
 * recipients themselves (they never change again), or references to what it reads then (a
 * message, as it is then).
 */
export type OutboxEntry =
  | {
      readonly kind: 'recipients.final';
      /** Each recipient the batch made final, as it is from then on. */
      readonly payload: readonly FinalRecipient[];
    }
  | {
      /** A message that may have just completed: the fan-out checks, once per message. */
      readonly kind: 'message.completed';
      readonly payload: { readonly messageId: number };
    }
  | {
      readonly kind: 'message.released' | 'message.cancelled';
      readonly payload: { readonly messageId: number };
    }
  | {
      readonly kind: 'sender.reviewed';
      readonly payload: {
        readonly name: string;
        readonly decision: 'approved' | 'rejected' | 'changes_requested';
        readonly note: string | null;
      };
    }
  | {
      readonly kind: 'balance.low';
      readonly payload: { readonly balance: number; readonly threshold: number };
    };

/** [message id, seq, msisdn, status, updated at]: a final recipient, which never changes. */
export type FinalRecipient = readonly [number, number, string, RecipientStatus, number];

export interface OutboxRow {
  readonly id: number;
  readonly accountId: number;
  readonly entry: OutboxEntry;
  readonly createdAt: number;
}

/** Writes outbox rows; on a store bound to a transaction, in that transaction. */
export interface WebhookOutboxWriter {
  addWebhookOutbox(accountId: number, entry: OutboxEntry, nowMs: number): Promise<void>;
}

export interface WebhookEndpoint {
  readonly id: number;
  readonly uuid: string;
  readonly accountId: number;
  readonly url: string;
  readonly description: string;
  /** Empty: every type. */
  readonly eventTypes: readonly WebhookEventType[];
  readonly enabled: boolean;
  readonly disabledReason: string | null;
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretUntil: number | null;
  readonly failingSince: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRecord {
  readonly id: number;
  readonly endpointId: number;
  readonly eventUid: string;
  readonly eventType: WebhookEventType;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly lastAttemptAt: number | null;
  readonly statusCode: number | null;
  readonly latencyMs: number | null;
  readonly error: string | null;
  readonly response: string | null;
  readonly createdAt: number;
}

/** An event ready to post, with the endpoints of its account that want it. */
export interface NewWebhookEvent {
  readonly uid: string;
  readonly accountId: number;
  readonly type: WebhookEventType;
  readonly body: string;
  /** Makes an event two processes may both derive one event (null: none). */
  readonly dedupeKey: string | null;
  readonly endpointIds: readonly number[];
  readonly createdAt: number;
}

export interface InsertedWebhookEvents {
  /** Events stored with at least one delivery (a dedupe key already stored: none). */
  readonly events: number;
  /** Deliveries written in all. */
  readonly deliveries: number;
  /** The deliveries leased to the caller, in the events' order. */
  readonly leased: readonly {
    readonly id: number;
    readonly eventUid: string;
    readonly endpointId: number;
  }[];
}

/** A delivery a deliverer leased, with what it needs to post it. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly attempts: number;
  /** Null before its first attempt. */
  readonly firstAttemptAt: number | null;
  readonly createdAt: number;
  readonly eventUid: string;
  readonly body: string;
  readonly endpoint: WebhookEndpoint;
}

/** What one attempt came to, as the deliverer writes it. */
export interface AttemptRecord {
  readonly deliveryId: number;
  readonly endpointId: number;
  /** The endpoint's failing time as the claim read it: no write when the attempt keeps it. */
  readonly endpointFailingSince: number | null;
  readonly at: number;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly response: string | null;
  /** delivered; pending again at `nextAttemptAt`; or failed (given up). */
  readonly state: DeliveryState;
  readonly nextAttemptAt: number;
}

/** Endpoints and their deliveries, as owners, operators and the deliverer read and change them. */
export interface WebhookEndpointStore extends WebhookOutboxWriter {
  insertWebhookEndpoint(
    endpoint: Omit<
      WebhookEndpoint,
      'id' | 'previousSecret' | 'previousSecretUntil' | 'failingSince' | 'disabledReason'
    >,
  ): Promise<WebhookEndpoint>;
  /** One account's endpoints, or every account's (null), oldest first. */
  listWebhookEndpoints(accountId: number | null): Promise<WebhookEndpoint[]>;
  findWebhookEndpoint(uuid: string): Promise<WebhookEndpoint | null>;
  updateWebhookEndpoint(
    id: number,
    change: Partial<
      Pick<
        WebhookEndpoint,
        | 'url'
        | 'description'
        | 'eventTypes'
        | 'enabled'
        | 'disabledReason'
        | 'secret'
        | 'previousSecret'
        | 'previousSecretUntil'
        | 'failingSince'
      >
    > & { readonly updatedAt: number },
  ): Promise<WebhookEndpoint | null>;
  /** Disables an enabled endpoint; false when it was not enabled (another process did it). */
  disableWebhookEndpoint(id: number, reason: string, nowMs: number): Promise<boolean>;
  /** Deletes the endpoint and its deliveries. */
  deleteWebhookEndpoint(id: number): Promise<boolean>;
  /** An endpoint's deliveries, newest first, before the delivery `before` when given. */
  listWebhookDeliveries(
    endpointId: number,
    page: { readonly limit: number; readonly before?: number },
  ): Promise<WebhookDeliveryRecord[]>;
  /** Makes a delivery due now again (a resend); false when it is not the endpoint's. */
  resendWebhookDelivery(endpointId: number, deliveryId: number, nowMs: number): Promise<boolean>;
  /**
   * Stores events and a pending delivery of each to each of its endpoints, due at once. With
   * `lease`, the first `lease.limit` deliveries are leased until `lease.until` to the caller,
   * which posts them (they are the ones returned) without claiming them.
   */
  insertWebhookEvents(
    events: readonly NewWebhookEvent[],
    lease?: { readonly until: number; readonly limit: number },
  ): Promise<InsertedWebhookEvents>;
}

/**
 * The outbox and the deliveries as the deliverer works them. On PostgreSQL, rows are taken with
 * `FOR UPDATE SKIP LOCKED`, so any number of processes share the work and none takes a row
 * another holds.
 */
export interface WebhookQueueStore extends WebhookEndpointStore {
  /** Outbox rows, oldest first, locked to this transaction (others skip them). */
  takeWebhookOutbox(limit: number): Promise<OutboxRow[]>;
  deleteWebhookOutbox(ids: readonly number[]): Promise<void>;
  /** Leases up to `limit` due deliveries of enabled endpoints until `leaseUntil`. */
  claimWebhookDeliveries(input: {
    nowMs: number;
    leaseUntil: number;
    limit: number;
  }): Promise<ClaimedDelivery[]>;
  /** Writes attempts' outcomes (on a store bound to a transaction: in it). */
  recordWebhookAttempts(attempts: readonly AttemptRecord[]): Promise<void>;
  /** Outbox rows and due deliveries waiting, and the oldest one's time. */
  webhookBacklog(nowMs: number): Promise<{ depth: number; oldestAt: number | null }>;
  /**
   * Deletes at most `limit` deliveries delivered or given up before `before`, and as many events
   * of that age none of whose deliveries is left; returns how many rows went.
   */
  purgeWebhookDeliveries(before: number, limit: number): Promise<number>;
  /** The messages an outbox names (any account's), for the fan-out to render. */
  messagesById(ids: readonly number[]): Promise<Message[]>;
}
