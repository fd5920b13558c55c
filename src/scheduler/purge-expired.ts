import type { RecipientListsStore } from '../domain/recipients/recipient-lists-store.js';
import type { SessionStore } from '../domain/users/session-store.js';
import type { AttemptStore } from '../domain/users/attempt-store.js';
import type { PeopleStore } from '../domain/users/people-store.js';
import type { SessionLimits } from '../domain/users/sessions.js';
import type { WebhookQueueStore } from '../domain/webhooks/webhook-store.js';

/**
 * How long a one-time link is kept once it has expired (a used one expired later than it was
 * used): meanwhile its page says "used" or "expired" rather than "not valid", and an owner still
 * sees an expired invitation in the list, to re-send it.
 */
export const LINK_RETENTION_MS = 30 * 24 * 60 * 60_000;
/**
 * How long webhook deliveries are kept once delivered or given up (and their events once none
 * is left): the console shows an endpoint's recent deliveries, and a resend needs its event.
 */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** How often the scheduler purges when the last run left nothing behind. */
export const PURGE_EVERY_MS = 60_000;
/** Rows of each kind one run deletes at most, so a run is short whatever piled up. */
export const PURGE_BATCH = 1_000;

/** Rows deleted by one run, by kind. */
export interface Purged {
  readonly sessions: number;
  readonly signInCounters: number;
  readonly invitations: number;
  readonly passwordResets: number;
  /** Uploaded number lists never sent (ADR 0034): up to 8 MB each. */
  readonly recipientLists: number;
  /** Webhook deliveries and events past WEBHOOK_RETENTION_MS. */
  readonly webhookRows: number;
}

/**
 * Deletes what the console leaves behind once it can serve nothing more, at most `batch` rows of
 * each kind: sessions at or past their idle or absolute limit (the very ones the console
 * refuses; anonymous rows stored by earlier versions among them), throttle windows that have
 * ended, invitations and password resets `LINK_RETENTION_MS` past their expiry (docs/adr/0032),
 * uploaded number lists past theirs, which are refused already (docs/adr/0034), and webhook
 * deliveries done for WEBHOOK_RETENTION_MS with their events (docs/adr/0049). Safe in any
 * number of processes at once: each only deletes rows that are over.
 */
export async function purgeExpired(
  store: RecipientListsStore & SessionStore & AttemptStore & PeopleStore & WebhookQueueStore,
  input: { sessionLimits: SessionLimits; nowMs: number; batch: number },
): Promise<Purged> {
  const { sessionLimits, nowMs, batch } = input;
  const sessions = await store.purgeSessions(
    {
      lastSeenBefore: nowMs - sessionLimits.idleMs,
      createdBefore: nowMs - sessionLimits.absoluteMs,
    },
    batch,
  );
  const signInCounters = await store.purgeAttempts(nowMs, batch);
  const links = await store.purgeOneTimeLinks(nowMs - LINK_RETENTION_MS, batch);
  const recipientLists = await store.deleteExpiredRecipientLists(nowMs, batch);
  const webhookRows = await store.purgeWebhookDeliveries(nowMs - WEBHOOK_RETENTION_MS, batch);
  return { sessions, signInCounters, ...links, recipientLists, webhookRows };
}
