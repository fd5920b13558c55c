// The webhook deliverer (docs/adr/0049, 0050): in paced turns, due deliveries are leased and the
// fan-out turns outbox rows into events, leasing the new deliveries its free slots take; what
// was leased is posted, up to `concurrency` at once, each signed as Standard Webhooks v1 says. A lease outlasts a request's timeout, so no other process posts a
// delivery this one holds; only a crash between a request and the turn that writes its outcome
// can make it posted twice, under the same id. A process killed at any point leaves rows that
// another one (or this one restarted) takes up.
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
import {
  postWebhook,
  type CutShort,
  type WebhookPost,
  type WebhookPostResult,
} from './post-webhook.js';
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
  /**
   * At stop, how long requests in flight may take before they are cut short (NOK_DRAIN_MS;
   * default their timeout). A request cut short is a failed attempt, retried on its schedule.
   */
  readonly drainMs?: number;
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
 * sees to it) and its outcome is written at the next turn, so twice that and a margin is only
 * ever reached by a process that died holding it.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 5_000;
/** Outbox rows one fan-out transaction takes at most. */
const FAN_OUT_ROWS = 500;
/**
 * How often a turn comes at most while work trickles in. Each turn is a transaction (on SQLite
 * a sync to disk, the delivery path waiting for the connection meanwhile), so attempts made in
 * the meantime wait for the next one to be written, and events for the next fan-out.
 */
const TURN_EVERY_MS = 50;
/**
 * While more is due than the slots took: how long after a request ends the loop waits for
 * others to end with it.
 */
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
  const drainMs = options.drainMs ?? settings.timeoutMs;
  const inFlight = new Set<Promise<void>>();
  /** What the requests in flight listen to, to be cut short at the end of the drain. */
  const cutListeners = new Set<() => void>();
  const cutShort: CutShort = {
    onCut(listener) {
      cutListeners.add(listener);
      return () => void cutListeners.delete(listener);
    },
  };
  /** Attempts made and not yet written: the next turn writes them in one transaction. */
  let finished: Finished[] = [];
  /** When rows left waiting for their batch window are due (null: none wait). */
  let waitingDueAt: number | null = null;
  /** More is due than the last turn took: the next one comes as soon as slots free up. */
  let backlog = false;
  /** When the last turn looked for due deliveries. */
  let claimedAt = -Infinity;
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
      await idle(failures > 0 ? Math.min(pollMs * 2 ** failures, 10_000) : untilNextTurn(worked));
    }
  })();

  /**
   * At once while more is due than the slots took and half of them are free; otherwise at the
   * turns' pace while there is work, or the idle poll, or when waiting rows' window ends.
   */
  function untilNextTurn(worked: boolean): number {
    const room = settings.concurrency - inFlight.size;
    if (backlog && room >= settings.concurrency / 2) return 0;
    const busy = worked || inFlight.size > 0 || finished.length > 0;
    const untilWaiting = waitingDueAt === null ? Infinity : waitingDueAt - clock.now();
    return Math.max(0, Math.min(busy ? Math.min(TURN_EVERY_MS, pollMs) : pollMs, untilWaiting));
  }

  /**
   * One transaction: writes the attempts made since the last turn, claims what is due (retries,
   * and deliveries no process leased as it wrote them), and fans the outbox out, leasing the
   * new deliveries the free slots can take. Then posts what it leased; true when there was any
   * work.
   */
  async function turn(): Promise<boolean> {
    const batch = finished;
    finished = [];
    const room = settings.concurrency - inFlight.size;
    let work: readonly [ClaimedDelivery[], FanOutResult];
    try {
      work = await store.transaction(async (tx) => {
        if (batch.length > 0) await tx.recordWebhookAttempts(batch.map((f) => f.attempt));
        const nowMs = clock.now();
        const leaseUntil = nowMs + leaseMs(settings.timeoutMs);
        // What is due goes first, so that new events cannot keep older ones waiting.
        // Retries are seconds apart at the least, and deliveries no process leased are a
        // backlog's: outside one, looking for them at the idle poll's pace is soon enough.
        const claiming = room > 0 && (backlog || nowMs - claimedAt >= pollMs);
        if (claiming) claimedAt = nowMs;
        const claimed = claiming
          ? await tx.claimWebhookDeliveries({ nowMs, leaseUntil, limit: room })
          : [];
        const fanned = await fanOut(tx, {
          nowMs,
          batchMax: settings.batchMax,
          // A row found at one turn or the next is sent within the window.
          batchWaitMs: Math.max(0, settings.batchWaitMs - TURN_EVERY_MS),
          limit: FAN_OUT_ROWS,
          lease: { until: leaseUntil, limit: room - claimed.length },
        });
        return [claimed, fanned] as const;
      });
    } catch (error) {
      // Written at the next turn; until then their leases keep the deliveries.
      finished = [...batch, ...finished];
      throw error;
    }
    const [claimed, fanned] = work;
    backlog = (room > 0 && claimed.length === room) || fanned.full || fanned.unleased > 0;
    waitingDueAt =
      fanned.waitingSince === null
        ? null
        : fanned.waitingSince + settings.batchWaitMs - TURN_EVERY_MS;
    for (const delivery of [...claimed, ...fanned.leased]) {
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
    return batch.length > 0 || fanned.done > 0 || claimed.length > 0;
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
      cutShort,
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
   * After a request ends: while more is due than the slots took, wakes the loop once half of
   * them are free, shortly after, so that requests ending together make one turn. Otherwise the
   * attempt waits for the next turn at the usual pace.
   */
  let soon: Timer | undefined;
  function wakeSoon(): void {
    if (!backlog || settings.concurrency - inFlight.size < settings.concurrency / 2) return;
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
      // The requests in flight get the drain; then they are cut short, and written as failed
      // attempts that any process retries on their schedule.
      let drained: Timer | undefined;
      await Promise.race([
        Promise.all(inFlight),
        new Promise<void>((resolve) => (drained = timers.after(drainMs, resolve))),
      ]);
      drained?.clear();
      for (const cut of [...cutListeners]) cut();
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
