// The fan-out (docs/adr/0049): outbox rows become events, each with a pending delivery to every
// enabled endpoint of its account that wants its type, in one transaction that also deletes the
// rows. Event bodies are rendered here, once: every attempt posts the same bytes under the same
// id. `recipients.final` rows of an account wait until their oldest is `batchWaitMs` old or
// they name `batchMax` recipients, so that a slow trickle of receipts still makes few requests.
import { presentMessage, presentRecipient } from '../api/presenters.js';
import type { WebhookEventData } from '../api/contract/webhooks.js';
import type { WebhookEventType } from '../domain/webhooks/event-types.js';
import { completeCounts } from '../domain/messages/get-message.js';
import type { Message, MessageStore } from '../domain/messages/message-store.js';
import type { RecipientStore } from '../domain/recipients/recipient-store.js';
import { eventBody, newEventId } from '../domain/webhooks/event-body.js';
import type {
  ClaimedDelivery,
  FinalRecipient,
  NewWebhookEvent,
  OutboxRow,
  WebhookEndpoint,
  WebhookQueueStore,
} from '../domain/webhooks/webhook-store.js';

/** What the fan-out reads and writes, in its caller's transaction. */
export type FanOutStore = WebhookQueueStore & RecipientStore & MessageStore;

export interface FanOutOptions {
  readonly nowMs: number;
  /** Recipients in one `recipients.final` event at most. */
  readonly batchMax: number;
  /** How long a `recipients.final` row may wait for others to join it. */
  readonly batchWaitMs: number;
  /** Outbox rows one call takes at most. */
  readonly limit: number;
  /**
   * Deliveries to lease to the caller as they are written, up to `limit`, until `until`: the
   * caller posts them at once, with no claim to read them back.
   */
  readonly lease?: { readonly until: number; readonly limit: number };
}

export interface FanOutResult {
  /** Rows turned into events (or dropped: no endpoint wanted them). */
  readonly done: number;
  readonly events: number;
  /** Rows left to wait for more to join them; the oldest one's time. */
  readonly waitingSince: number | null;
  /** The call took as many rows as it could: there may be more. */
  readonly full: boolean;
  /** The deliveries leased to the caller, to post now. */
  readonly leased: readonly ClaimedDelivery[];
  /** Deliveries written and left for a claim: more than `lease.limit`. */
  readonly unleased: number;
}

/** Runs in the caller's transaction (`tx`), which takes the outbox rows and writes the events. */
export async function fanOut(tx: FanOutStore, options: FanOutOptions): Promise<FanOutResult> {
  const { nowMs, batchMax, batchWaitMs, limit } = options;
  const rows = await tx.takeWebhookOutbox(limit);
  const { ready, waitingSince } = readyRows(rows, { nowMs, batchMax, batchWaitMs });
  const full = rows.length >= limit;
  if (ready.length === 0)
    return { done: 0, events: 0, waitingSince, full, leased: [], unleased: 0 };

  const endpoints = new Map<number, WebhookEndpoint[]>();
  for (const accountId of new Set(ready.map((row) => row.accountId))) {
    const enabled = (await tx.listWebhookEndpoints(accountId)).filter((e) => e.enabled);
    endpoints.set(accountId, enabled);
  }
  const wanting = (accountId: number, type: WebhookEventType) =>
    (endpoints.get(accountId) ?? [])
      .filter((e) => e.eventTypes.length === 0 || e.eventTypes.includes(type))
      .map((e) => e.id);

  const messageIds = new Set<number>();
  for (const row of ready) {
    if (wanting(row.accountId, row.entry.kind).length === 0) continue;
    if (row.entry.kind === 'recipients.final') {
      for (const [messageId] of row.entry.payload) messageIds.add(messageId);
    } else if ('messageId' in row.entry.payload) {
      messageIds.add(row.entry.payload.messageId);
    }
  }
  const messages = new Map(
    (await tx.messagesById([...messageIds])).map((message) => [message.id, message]),
  );

  const events: NewWebhookEvent[] = [];
  const add = <T extends WebhookEventType>(
    row: { accountId: number; createdAt: number },
    type: T,
    data: WebhookEventData<T>,
    dedupeKey: string | null = null,
  ) => {
    events.push({
      uid: newEventId(),
      accountId: row.accountId,
      type,
      body: eventBody(type, row.createdAt, data),
      dedupeKey,
      endpointIds: wanting(row.accountId, type),
      createdAt: nowMs,
    });
  };

  // Recipients: every row of an account together, by message, batchMax a event.
  const finals = new Map<number, { row: OutboxRow; recipients: FinalRecipient[] }>();
  for (const row of ready) {
    const { entry } = row;
    if (wanting(row.accountId, entry.kind).length === 0) continue;
    switch (entry.kind) {
      case 'recipients.final':
        for (const recipient of entry.payload) {
          let message = finals.get(recipient[0]);
          if (!message) finals.set(recipient[0], (message = { row, recipients: [] }));
          message.recipients.push(recipient);
        }
        break;
      case 'message.completed': {
        const message = messages.get(entry.payload.messageId);
        if (!message) break;
        const counts = completeCounts(await tx.messageCountsByUuid(message.uuid), message.status);
        const complete =
          (message.status === 'sent' || message.status === 'failed') &&
          (counts.get('pending') ?? 0) === 0;
        if (complete) {
          add(row, 'message.completed', presentMessage(message, counts), `completed:${message.id}`);
        }
        break;
      }
      case 'message.released':
      case 'message.cancelled': {
        const message = messages.get(entry.payload.messageId);
        if (message) add(row, entry.kind, await presentWithCounts(tx, message));
        break;
      }
      case 'sender.reviewed':
        add(row, 'sender.reviewed', entry.payload);
        break;
      case 'balance.low':
        add(row, 'balance.low', entry.payload);
        break;
    }
  }
  for (const [messageId, { row, recipients }] of finals) {
    const message = messages.get(messageId);
    if (!message) continue;
    recipients.sort((a, b) => a[1] - b[1]);
    for (let i = 0; i < recipients.length; i += batchMax) {
      add(row, 'recipients.final', {
        messageUuid: message.uuid,
        refNo: message.refNo,
        recipients: recipients
          .slice(i, i + batchMax)
          .map(([, seq, msisdn, status, updatedAt]) =>
            presentRecipient({ seq, msisdn, status, updatedAt: Number(updatedAt) }),
          ),
      });
    }
  }

  const stored = await tx.insertWebhookEvents(events, options.lease);
  await tx.deleteWebhookOutbox(ready.map((row) => row.id));
  const byUid = new Map(events.map((event) => [event.uid, event]));
  const byId = new Map([...endpoints.values()].flat().map((endpoint) => [endpoint.id, endpoint]));
  const leased = stored.leased.map(({ id, eventUid, endpointId }): ClaimedDelivery => {
    const event = byUid.get(eventUid)!;
    return {
      id,
      attempts: 0,
      firstAttemptAt: null,
      createdAt: event.createdAt,
      eventUid,
      body: event.body,
      endpoint: byId.get(endpointId)!,
    };
  });
  return {
    done: ready.length,
    events: stored.events,
    waitingSince,
    full,
    leased,
    unleased: stored.deliveries - leased.length,
  };
}

/** The message as GET shows it: with its drSummary once it is complete. */
async function presentWithCounts(store: RecipientStore, message: Message) {
  const counts = completeCounts(await store.messageCountsByUuid(message.uuid), message.status);
  const complete =
    message.status === 'sent' ||
    message.status === 'failed' ||
    (message.status === 'pending' && (counts.get('pending') ?? 0) === 0);
  return presentMessage(message, complete ? counts : undefined);
}

/**
 * The rows to turn into events now: all but the `recipients.final` and `message.completed` rows
 * of accounts whose oldest `recipients.final` row is younger than `batchWaitMs` while they name
 * fewer than `batchMax` recipients.
 */
function readyRows(
  rows: readonly OutboxRow[],
  { nowMs, batchMax, batchWaitMs }: Pick<FanOutOptions, 'nowMs' | 'batchMax' | 'batchWaitMs'>,
): { ready: OutboxRow[]; waitingSince: number | null } {
  const pending = new Map<number, { oldest: number; count: number }>();
  for (const row of rows) {
    if (row.entry.kind !== 'recipients.final') continue;
    const account = pending.get(row.accountId) ?? { oldest: row.createdAt, count: 0 };
    account.oldest = Math.min(account.oldest, row.createdAt);
    account.count += row.entry.payload.length;
    pending.set(row.accountId, account);
  }
  const waits = (accountId: number) => {
    const account = pending.get(accountId);
    return (
      account !== undefined && account.oldest > nowMs - batchWaitMs && account.count < batchMax
    );
  };
  let waitingSince: number | null = null;
  const ready: OutboxRow[] = [];
  for (const row of rows) {
    // A completion waits with its account's recipients, so that it usually comes after them.
    const kind = row.entry.kind;
    if ((kind === 'recipients.final' || kind === 'message.completed') && waits(row.accountId)) {
      waitingSince = Math.min(waitingSince ?? row.createdAt, row.createdAt);
    } else {
      ready.push(row);
    }
  }
  return { ready, waitingSince };
}
