import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../domain/ports.js';
import { CompactListCache } from '../domain/recipients/compact-list-cache.js';
import type { EngineOps } from '../storage/engine.js';
import { materialiseNextChunk } from './materialise-recipients.js';
import { releaseDueMessages } from './release-due-messages.js';

export interface BackgroundJobs {
  /** Asks for work now rather than at the next tick (after a send is accepted). */
  wake(): void;
  /** Resolves once the current step has finished; no step starts after. */
  stop(): Promise<void>;
}

export interface BackgroundJobOptions {
  readonly store: Store;
  readonly engine: EngineOps;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalMs: number;
  readonly chunkSize: number;
  /** Told when rows were written or messages released: there may be work to dispatch. */
  readonly onWork?: () => void;
}

/**
 * The scheduler role: releases due scheduled messages and materialises recipient rows. One
 * step at a time; between materialisation chunks it yields to the event loop so an API in the
 * same process keeps answering.
 */
export function startBackgroundJobs(options: BackgroundJobOptions): BackgroundJobs {
  const { store, engine, clock, logger } = options;
  const cache = new CompactListCache(2);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeRequested = false;

  async function release(): Promise<void> {
    const released = await releaseDueMessages(store, clock.now());
    if (released.length > 0) {
      logger.info({ messageIds: released }, 'released scheduled messages');
      options.onWork?.();
    }
  }

  // Materialisation runs until no chunk is left, which for a backlog of large sends can take
  // long: due messages are released between chunks too, at most once an interval.
  async function step(): Promise<void> {
    await release();
    let releasedAt = clock.now();
    let written: number;
    do {
      written = await materialiseNextChunk(store, engine, cache, options.chunkSize, clock.now());
      if (written > 0) {
        options.onWork?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (clock.now() - releasedAt >= options.intervalMs) {
        await release();
        releasedAt = clock.now();
      }
    } while (written > 0 && !stopped);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  }

  function run(): void {
    if (running) {
      wakeRequested = true;
      return;
    }
    wakeRequested = false;
    running = step()
      .catch((error: unknown) =>
        logger.error({ err: error }, 'background step failed; retrying at the next tick'),
      )
      .finally(() => {
        running = undefined;
        schedule(wakeRequested ? 0 : options.intervalMs);
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
      clearTimeout(timer);
      await running;
    },
  };
}
