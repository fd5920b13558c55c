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
import type { UserStore } from '../domain/users/user-store.js';
import { nextAttempt } from '../domain/webhooks/retry-schedule.js';
import type {
  ClaimedDelivery,
  WebhookEndpoint,
  WebhookQueueStore,
} from '../domain/webhooks/webhook-store.js';
import type { Metrics } from '../metrics/metrics.js';
import { fanOut, type FanOutStore } from './fan-out.js';
import { postWebhook, type WebhookPost, type WebhookPostResult } from './post-webhook.js';
import { webhookSignature } from './sign.js';

export interface WebhookDelivererOptions {
  readonly store: FanOutStore & WebhookQueueStore & UserStore;
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

export function startWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const { store, clock, timers, logger, settings } = options;
  const post = options.post ?? postWebhook;
  const random = options.random ?? Math.random;
  const pollMs = options.pollMs ?? 200;
  const inFlight = new Set<Promise<void>>();
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
      if (!worked) await idle(failures > 0 ? Math.min(pollMs * 2 ** failures, 10_000) : pollMs);
    }
  })();

  /** One fan-out and one claim; true when either found work. */
  async function turn(): Promise<boolean> {
    let worked = false;
    for (;;) {
      const fan = await fanOut(store, {
        nowMs: clock.now(),
        batchMax: settings.batchMax,
        batchWaitMs: settings.batchWaitMs,
        limit: FAN_OUT_ROWS,
      });
      worked ||= fan.done > 0;
      if (!fan.full || fan.done === 0) break;
    }
    const room = settings.concurrency - inFlight.size;
    if (room <= 0) return worked;
    const nowMs = clock.now();
    const claimed = await store.claimWebhookDeliveries({
      nowMs,
      leaseUntil: nowMs + leaseMs(settings.timeoutMs),
      limit: room,
    });
    for (const delivery of claimed) {
      const attempt = deliver(delivery)
        .catch((error: unknown) =>
          logger.error({ err: error, delivery: delivery.id }, 'recording a webhook attempt failed'),
        )
        .finally(() => {
          inFlight.delete(attempt);
          wake();
        });
      inFlight.add(attempt);
    }
    return worked || claimed.length > 0;
  }

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
    const gone = result.statusCode === 410;
    const next = result.ok
      ? { state: 'delivered' as const, nextAttemptAt: at }
      : gone
        ? { state: 'failed' as const, nextAttemptAt: at }
        : nextAttempt({
            attempts: delivery.attempts + 1,
            nowMs: at,
            eventAt: delivery.createdAt,
            windowMs: settings.retryWindowMs,
            retryAfterMs: result.retryAfterMs,
            random: random(),
          });
    await store.recordWebhookAttempt({
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      at,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      response: result.response,
      ...next,
    });
    options.metrics?.webhookAttempts.inc({
      outcome: next.state === 'pending' ? 'retry' : next.state,
    });
    if (result.ok) return;
    logger.info(
      { endpoint: endpoint.uuid, event: delivery.eventUid, error: result.error, next: next.state },
      'a webhook attempt failed',
    );
    // Failing through the whole window: with no success since this delivery's first attempt,
    // now that it is given up, or for a window's length whatever the events.
    const failingSince = endpoint.failingSince ?? at;
    if (gone) {
      await disable(endpoint, 'the endpoint answered 410 Gone', at);
    } else if (
      (next.state === 'failed' && failingSince <= (delivery.firstAttemptAt ?? at)) ||
      at - failingSince >= settings.retryWindowMs
    ) {
      const since = new Date(failingSince).toISOString();
      await disable(endpoint, `every delivery failed since ${since}`, at);
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

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
