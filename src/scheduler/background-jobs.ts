import type { Logger } from 'pino';
import { ReconnectBackoff } from '../domain/reconnect-backoff.js';
import type { Clock } from '../domain/clock.js';
import type { Timer, Timers } from '../domain/timers.js';
import { CompactListCache } from '../domain/recipients/compact-list-cache.js';
import type { RecipientChunkWriter } from '../domain/recipients/recipient-chunk-writer.js';
import { isStoreUnavailable } from '../domain/store-unavailable.js';
import type { SessionLimits } from '../domain/users/sessions.js';
import type { LifecycleEvents } from '../domain/lifecycle-events.js';
import { materialiseNext } from './materialise-recipients.js';
import { PURGE_BATCH, PURGE_EVERY_MS, purgeExpired } from './purge-expired.js';
import { releaseDueMessages } from './release-due-messages.js';

/** What the background jobs ask of the store: each job's ports. */
type JobsStore = Parameters<typeof releaseDueMessages>[0] &
  Parameters<typeof purgeExpired>[0] &
  Parameters<typeof materialiseNext>[0];

export interface BackgroundJobs {
  /** Asks for work now rather than at the next tick (after a send is accepted). */
  wake(): void;
  /** Resolves once the current step has finished; no step starts after. */
  stop(): Promise<void>;
}

export interface BackgroundJobOptions {
  readonly store: JobsStore;
  readonly engine: RecipientChunkWriter;
  readonly clock: Clock;
  /** What the idle tick and the wait after a failed step are set on. */
  readonly timers: Timers;
  /** Told of messages released and recipient rows written, once committed. */
  readonly events: LifecycleEvents;
  readonly logger: Logger;
  readonly intervalMs: number;
  readonly chunkSize: number;
  /** Told when rows were written or messages released: there may be work to dispatch. */
  readonly onWork?: () => void;
  /**
   * Purges what the console leaves behind (purge-expired.ts: expired sessions, sign-in counters,
   * one-time links, uploaded lists) every `everyMs` of the clock, at most `batch` rows of each a
   * run.
   */
  readonly purge: {
    readonly sessionLimits: SessionLimits;
    readonly everyMs?: number;
    readonly batch?: number;
  };
}

/** A failing step is tried again after intervalMs, doubling up to this many intervals. */
const MAX_BACKOFF_INTERVALS = 16;

/**
 * The scheduler role: releases due scheduled messages, materialises recipient rows and purges
 * what the console leaves behind once it is over (purge-expired.ts). One step at a time; between materialisation chunks it yields to the event
 * loop so an API in the same process keeps answering. A failed step (the store down or full)
 * changed nothing it did not commit, and is tried again after a delay that doubles while it
 * keeps failing; a wake (a send accepted: the store is back) tries at once. The idle tick and
 * those delays are timers of `timers`; a step asked for at once (the start, a wake) runs on the
 * next turn of the event loop and waits on no timer.
 */
export function startBackgroundJobs(options: BackgroundJobOptions): BackgroundJobs {
  const { store, engine, clock, timers, events, logger } = options;
  const cache = new CompactListCache(2);
  let stopped = false;
  let tick: Timer | undefined;
  let soon = false;
  let running: Promise<void> | undefined;
  let wakeRequested = false;
  const backoff = new ReconnectBackoff(
    options.intervalMs,
    options.intervalMs * MAX_BACKOFF_INTERVALS,
  );
  let failing = false;

  async function release(): Promise<void> {
    const released = await releaseDueMessages(store, clock.now());
    if (released.length > 0) {
      logger.info({ messageIds: released }, 'released scheduled messages');
      events.emit('messagesReleased', { messageIds: released });
      options.onWork?.();
    }
  }

  let purgeDueAt = clock.now();

  // Housekeeping: it never holds up sending, so a failure is logged and tried at its next turn.
  // A run that deleted a whole batch of anything left more behind: the next step goes on.
  async function purge(): Promise<void> {
    const settings = options.purge;
    const nowMs = clock.now();
    if (nowMs < purgeDueAt) return;
    const batch = settings.batch ?? PURGE_BATCH;
    const everyMs = settings.everyMs ?? PURGE_EVERY_MS;
    try {
      const purged = await purgeExpired(store, { ...settings, nowMs, batch });
      const counts = Object.values(purged);
      if (counts.some((n) => n > 0)) logger.info({ purged }, 'purged expired console records');
      purgeDueAt = counts.some((n) => n >= batch) ? nowMs : nowMs + everyMs;
    } catch (error) {
      logger.warn({ err: error }, 'purging expired console records failed; trying again later');
      purgeDueAt = nowMs + everyMs;
    }
  }

  // Materialisation runs until no chunk is left, which for a backlog of large sends can take
  // long: due messages are released between chunks too, at most once an interval.
  async function step(): Promise<void> {
    await release();
    let releasedAt = clock.now();
    let written: number;
    do {
      const chunk = await materialiseNext(store, engine, cache, options.chunkSize, clock.now());
      written = chunk ? chunk.toSeq - chunk.fromSeq : 0;
      if (chunk) events.emit('recipientsMaterialised', chunk);
      if (written > 0) {
        options.onWork?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (clock.now() - releasedAt >= options.intervalMs) {
        await release();
        releasedAt = clock.now();
      }
    } while (written > 0 && !stopped);
    if (!stopped) await purge();
  }

  /** The next step in `delayMs`, or on the next turn for 0; replaces the step scheduled. */
  function schedule(delayMs: number): void {
    if (stopped) return;
    tick?.clear();
    tick = undefined;
    if (delayMs > 0) {
      tick = timers.after(delayMs, run);
    } else if (!soon) {
      soon = true;
      setImmediate(() => {
        soon = false;
        run();
      });
    }
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      wakeRequested = true;
      return;
    }
    wakeRequested = false;
    running = step()
      .then(() => {
        if (failing) logger.info('background step succeeded again');
        failing = false;
        backoff.reset();
        return options.intervalMs;
      })
      .catch((error: unknown) => {
        const retryInMs = backoff.nextDelayMs();
        const what = isStoreUnavailable(error) ? 'the store is unavailable' : 'it failed';
        // Once at error level when the trouble starts; its repeats at warn.
        logger[failing ? 'warn' : 'error'](
          { err: error, retryInMs },
          `background step stopped: ${what}; trying again later`,
        );
        failing = true;
        return retryInMs;
      })
      .then((delayMs) => {
        running = undefined;
        schedule(wakeRequested ? 0 : delayMs);
      });
  }

  schedule(0);
  return {
    // While a step runs, a wake is a flag its `finally` reads: a timer set now could be cleared
    // by that `finally` rescheduling the idle tick, and the wake lost.
    wake: () => {
      if (running) wakeRequested = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      tick?.clear();
      tick = undefined;
      await running;
    },
  };
}
