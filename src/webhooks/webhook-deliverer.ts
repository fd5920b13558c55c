// The webhook deliverer (docs/adr/0049): in a loop, the fan-out turns outbox rows into events,
// then due deliveries are leased and posted, up to `concurrency` at once, each signed as
// Standard Webhooks v1 says. A lease outlasts a request's timeout, so no other process posts a
// delivery this one holds; only a crash during a request can make it posted twice, under the
// same id. Nothing is kept in memory that the database does not have: a process killed at any
// point leaves rows that another one (or this one restarted) takes up.
import type { Logger } from 'pino';
import type { WebhookSettings } from '../domain/webhooks/webhook-settings.js';
import type { Clock } from '../domain/clock.js';
import type { Outbox } from '../domain/mail/mailer.js';
import type { Timer, Timers } from '../domain/timers.js';
import type { Transactor } from '../domain/transactor.js';
import type { UserStore } from '../domain/users/user-store.js';
import { nextAttempt } from '../domain/webhooks/retry-schedule.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  WebhookEndpoint,
  WebhookQueueStore,
} from '../domain/webhooks/webhook-store.js';
import type { Metrics } from '../metrics/metrics.js';
import { fanOut, type FanOutResult, type FanOutStore } from './fan-out.js';
import { postWebhook, type WebhookPost, type WebhookPostResult } from './post-webhook.js';
import { webhookSignature } from './sign.js';

export interface WebhookDelivererOptions {
  readonly store: Transactor<FanOutStore> & WebhookQueueStore & UserStore;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly settings: WebhookSettings;
  /** Where owners are told of an endpoint disabled. */
  readonly mail: Outbox;
  /** The console's address, for the link in that mail. */
  readonly publicUrl: string;
  readonly metrics?: Metrics;
  /** How often an idle deliverer looks for work (default 200 ms). */
  readonly pollMs?: number;
  readonly post?: (post: WebhookPost) => Promise<WebhookPostResult>;
  readonly random?: () => number;
}

export interface WebhookDeliverer {
  /** Looks for work now (an event was written in this process). */
  wake(): void;
  /** Stops taking work and waits for the requests in flight. */
  stop(): Promise<void>;
}

/**
 * How long a claimed delivery stays leased: a request ends within its timeout (post-webhook.ts
 * sees to it) and its outcome is written just after, so twice that and a margin is only ever
 * reached by a process that died holding it.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 5_000;
/** Outbox rows one fan-out transaction takes at most. */
const FAN_OUT_ROWS = 500;
/**
 * How often the outbox is fanned out at most: each fan-out is a transaction, and a turn comes
 * at every request's end.
 */
const fanOutEveryMs = 50;
/** How long after a request ends the loop waits for others to end with it. */
const WAKE_COALESCE_MS = 10;

interface Finished {
  readonly delivery: ClaimedDelivery;
  readonly result: WebhookPostResult;
  readonly attempt: AttemptRecord;
}

export function startWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const { store, clock, timers, logger, settings } = options;
  const post = options.post ?? postWebhook;
  const random = options.random ?? Math.random;
  const pollMs = options.pollMs ?? 200;
  const inFlight = new Set<Promise<void>>();
  /** Attempts made and not yet written: the next turn writes them in one transaction. */
  let finished: Finished[] = [];
  let fanOutDueAt = 0;
  /** When rows left waiting for their batch window are due (null: none wait). */
  let waitingDueAt: number | null = null;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let failures = 0;

  const loop = (async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await turn();
        failures = 0;
      } catch (error) {
        failures++;
        logger.warn({ err: error }, 'webhook delivery step failed; trying again shortly');
      }
      if (stopped) break;
      if (worked) continue;
      // Idle: until the next poll, or sooner when waiting rows' window ends.
      const untilWaiting = waitingDueAt === null ? pollMs : waitingDueAt - clock.now();
      await idle(
        failures > 0
          ? Math.min(pollMs * 2 ** failures, 10_000)
          : Math.max(0, Math.min(pollMs, untilWaiting)),
      );
    }
  })();

  /**
   * One transaction (one commit: on SQLite each is a sync to disk, and the delivery path waits
   * for the connection meanwhile): writes the attempts made since the last turn, fans the outbox
   * out (at most every `fanOutEveryMs`, sooner while it finds full batches), and claims what the
   * free slots can take. Then posts what it claimed; true when there was any work.
   */
  async function turn(): Promise<boolean> {
    const batch = finished;
    finished = [];
    const room = settings.concurrency - inFlight.size;
    const fanOutNow = clock.now() >= fanOutDueAt;
    // Claims are made for half the slots or more at once: a turn is a transaction of a few
    // round trips, not worth one request.
    const claimNow = room > 0 && (inFlight.size === 0 || room >= settings.concurrency / 2);
    if (batch.length === 0 && !fanOutNow && !claimNow) return false;
    let fan: FanOutResult | null = null;
    let claimed: ClaimedDelivery[];
    try {
      claimed = await store.transaction(async (tx) => {
        if (batch.length > 0) await tx.recordWebhookAttempts(batch.map((f) => f.attempt));
        if (fanOutNow) {
          fan = await fanOut(tx, {
            nowMs: clock.now(),
            batchMax: settings.batchMax,
            // A row found at one fan-out or the next is sent within the window.
            batchWaitMs: Math.max(0, settings.batchWaitMs - fanOutEveryMs),
            limit: FAN_OUT_ROWS,
          });
        }
        if (!claimNow) return [];
        const nowMs = clock.now();
        return tx.claimWebhookDeliveries({
          nowMs,
          leaseUntil: nowMs + leaseMs(settings.timeoutMs),
          limit: room,
        });
      });
    } catch (error) {
      // Written at the next turn; until then their leases keep the deliveries.
      finished = [...batch, ...finished];
      throw error;
    }
    const fanned = fan as FanOutResult | null;
    if (fanOutNow) {
      fanOutDueAt = fanned?.full && fanned.done > 0 ? 0 : clock.now() + fanOutEveryMs;
      waitingDueAt =
        fanned?.waitingSince == null
          ? null
          : Math.max(fanned.waitingSince + settings.batchWaitMs - fanOutEveryMs, fanOutDueAt);
    }
    for (const delivery of claimed) {
      const attempt = deliver(delivery)
        .catch((error: unknown) =>
          logger.error({ err: error, delivery: delivery.id }, 'posting a webhook failed'),
        )
        .finally(() => {
          inFlight.delete(attempt);
          wakeSoon();
        });
      inFlight.add(attempt);
    }
    await afterRecorded(batch);
    return batch.length > 0 || (fanned?.done ?? 0) > 0 || claimed.length > 0;
  }

  /** Posts one delivery; its outcome waits in `finished` for the next turn to write. */
  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const { endpoint } = delivery;
    const sentAt = clock.now();
    const timestamp = Math.floor(sentAt / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > sentAt) {
      secrets.push(endpoint.previousSecret);
    }
    const result = await post({
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'webhook-id': delivery.eventUid,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(secrets, delivery.eventUid, timestamp, delivery.body),
      },
      body: delivery.body,
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivateTargets,
    });
    const at = clock.now();
    const next = result.ok
      ? { state: 'delivered' as const, nextAttemptAt: at }
      : result.statusCode === 410
        ? { state: 'failed' as const, nextAttemptAt: at }
        : nextAttempt({
            attempts: delivery.attempts + 1,
            nowMs: at,
            eventAt: delivery.createdAt,
            windowMs: settings.retryWindowMs,
            retryAfterMs: result.retryAfterMs,
            random: random(),
          });
    finished.push({
      delivery,
      result,
      attempt: {
        deliveryId: delivery.id,
        endpointId: endpoint.id,
        endpointFailingSince: endpoint.failingSince,
        at,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
        response: result.response,
        ...next,
      },
    });
  }

  /** Counts the attempts written and acts on the failures: a 410, a window of failures. */
  async function afterRecorded(batch: readonly Finished[]): Promise<void> {
    for (const { delivery, result, attempt } of batch) {
      options.metrics?.webhookAttempts.inc({
        outcome: attempt.state === 'pending' ? 'retry' : attempt.state,
      });
      if (result.ok) continue;
      const { endpoint } = delivery;
      logger.info(
        {
          endpoint: endpoint.uuid,
          event: delivery.eventUid,
          error: result.error,
          next: attempt.state,
        },
        'a webhook attempt failed',
      );
      // Failing through the whole window: with no success since this delivery's first attempt,
      // now that it is given up, or for a window's length whatever the events.
      const failingSince = endpoint.failingSince ?? attempt.at;
      if (result.statusCode === 410) {
        await disable(endpoint, 'the endpoint answered 410 Gone', attempt.at);
      } else if (
        (attempt.state === 'failed' && failingSince <= (delivery.firstAttemptAt ?? attempt.at)) ||
        attempt.at - failingSince >= settings.retryWindowMs
      ) {
        const since = new Date(failingSince).toISOString();
        await disable(endpoint, `every delivery failed since ${since}`, attempt.at);
      }
    }
  }

  /** Disables the endpoint (once, whichever process gets there) and tells the owners. */
  async function disable(endpoint: WebhookEndpoint, reason: string, nowMs: number): Promise<void> {
    if (!(await store.disableWebhookEndpoint(endpoint.id, reason, nowMs))) return;
    logger.warn({ endpoint: endpoint.uuid, reason }, 'disabled a webhook endpoint');
    const owners = await store.listUsers({ accountId: endpoint.accountId, role: 'owner' });
    for (const owner of owners) {
      options.mail.post({
        to: owner.email,
        subject: 'Nok: a webhook endpoint was disabled',
        text: [
          `Hello ${owner.name},`,
          '',
          `Nok disabled your webhook endpoint ${endpoint.url} (${endpoint.uuid}): ${reason}.`,
          'Events for it are kept but not sent until it is enabled again. Fix the receiver,',
          `then enable it in the console (Your account → Webhooks): ${options.publicUrl}/console/webhooks`,
          '',
          'Nok',
        ].join('\n'),
      });
    }
  }

  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: Timer | undefined = undefined;
      const done = () => {
        timer?.clear();
        wakeUp = undefined;
        resolve();
      };
      wakeUp = done;
      timer = timers.after(ms, done);
    });
  }

  function wake(): void {
    wakeUp?.();
  }

  /**
   * Wakes the loop shortly after a request ends, so that requests ending together are written
   * in one turn; at once when none is left in flight.
   */
  let soon: Timer | undefined;
  function wakeSoon(): void {
    if (inFlight.size === 0) return wake();
    soon ??= timers.after(WAKE_COALESCE_MS, () => {
      soon = undefined;
      wake();
    });
  }

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(inFlight);
      soon?.clear();
      if (finished.length > 0) {
        const batch = finished;
        await store
          .transaction((tx) => tx.recordWebhookAttempts(batch.map((f) => f.attempt)))
          .catch((error: unknown) =>
            logger.warn(
              { err: error },
              'the last webhook attempts were not written; their deliveries are posted again',
            ),
          );
      }
    },
  };
}
