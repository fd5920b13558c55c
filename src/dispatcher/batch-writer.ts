import type { Logger } from 'pino';
import { ReconnectBackoff } from '../domain/reconnect-backoff.js';
import { sleep, type Timer, type Timers } from '../domain/timers.js';

export interface BatchWriterOptions<T> {
  /** Writes one batch durably. */
  readonly write: (items: T[]) => Promise<void>;
  /** Items that start a write at once. */
  readonly maxBatch: number;
  /** How long the first item of a batch waits for company. */
  readonly delayMs: number;
  /**
   * After a failed write, wait this long and write the same items again; while writes keep
   * failing (the store down) the wait doubles, up to 32 times this.
   */
  readonly retryDelayMs: number;
  /**
   * Batches written at the same time, at most (default 1). More overlap one batch's round trips
   * with another's; the storage must accept concurrent writers (row locks, deadlock retries).
   */
  readonly concurrency?: number;
  /** What the wait for company and the wait after a failed write are set on. */
  readonly timers: Timers;
  readonly logger: Logger;
  readonly what: string;
}

interface Pending<T> {
  readonly item: T;
  readonly done: () => void;
  readonly fail: (error: Error) => void;
}

/**
 * Group commit: items added within `delayMs` (or until `maxBatch`) go to storage in one
 * transaction, and each `add` resolves once its item is durable. A failed write is retried with
 * the same items until it succeeds, so nothing added is dropped; only `stop` gives up, and then
 * the pending adds reject. A batch that starts at once (a full one) waits on no timer: it is
 * written on the next turn of the event loop.
 */
export class BatchWriter<T> {
  #queue: Pending<T>[] = [];
  #timer: Timer | undefined;
  /** A write is asked for on the next turn of the event loop. */
  #soon = false;
  /** Writes under way, each with its batch until it is durable. */
  readonly #writes = new Map<Promise<void>, Pending<T>[]>();
  #stopped = false;

  constructor(private readonly options: BatchWriterOptions<T>) {}

  get pending(): number {
    return this.#queue.length;
  }

  add(item: T): Promise<void> {
    if (this.#stopped) return Promise.reject(new Error(`${this.options.what}: stopped`));
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, done: resolve, fail: reject });
      this.#kick(this.#queue.length >= this.options.maxBatch ? 0 : this.options.delayMs);
    });
  }

  /**
   * Writes what is queued now (not what is added meanwhile) and waits for it and for the writes
   * under way: one round, so a steady stream of adds cannot keep the caller waiting.
   */
  async flush(): Promise<void> {
    this.#timer?.clear();
    this.#timer = undefined;
    const queued = this.#queue.length;
    const waits = [...this.#writes.keys()];
    if (queued > 0) waits.push(this.#write(this.#queue.splice(0, queued)));
    await Promise.all(waits);
  }

  /** Writes until nothing is queued (for a stop, once nothing is added any more). */
  async drain(): Promise<void> {
    while (this.#writes.size > 0 || this.#queue.length > 0) await this.flush();
  }

  /** Writes what is queued (one try), then refuses more. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.clear();
    this.#timer = undefined;
    await Promise.all(this.#writes.keys());
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length > 0) {
      try {
        await this.options.write(batch.map((p) => p.item));
        for (const p of batch) p.done();
        batch.length = 0;
      } catch (error) {
        this.options.logger.error({ err: error }, `${this.options.what}: last write failed`);
      }
    }
    // What is still not durable: the adds reject (a receipt then stays unanswered, and the
    // SMSC sends it again).
    const stopped = new Error(`${this.options.what}: stopped before it was written`);
    for (const pending of [...this.#writes.values(), batch]) {
      for (const p of pending) p.fail(stopped);
    }
    this.#writes.clear();
  }

  #kick(delayMs: number): void {
    if (this.#writes.size >= (this.options.concurrency ?? 1)) return;
    if (delayMs > 0) {
      if (this.#timer || this.#soon) return;
      this.#timer = this.options.timers.after(delayMs, () => {
        this.#timer = undefined;
        this.#start();
      });
      return;
    }
    this.#timer?.clear();
    this.#timer = undefined;
    if (this.#soon) return;
    this.#soon = true;
    setImmediate(() => {
      this.#soon = false;
      this.#start();
    });
  }

  /** Starts writes of what is queued, as many as may run at once. */
  #start(): void {
    if (this.#stopped) return;
    while (this.#writes.size < (this.options.concurrency ?? 1) && this.#queue.length > 0) {
      void this.#write(this.#queue.splice(0, this.options.maxBatch));
    }
  }

  #write(batch: Pending<T>[]): Promise<void> {
    const write = this.#writeUntilDone(batch).finally(() => {
      this.#writes.delete(write);
      if (this.#queue.length > 0 && !this.#stopped) {
        this.#kick(this.#queue.length >= this.options.maxBatch ? 0 : this.options.delayMs);
      }
    });
    this.#writes.set(write, batch);
    return write;
  }

  async #writeUntilDone(batch: Pending<T>[]): Promise<void> {
    const backoff = new ReconnectBackoff(this.options.retryDelayMs, this.options.retryDelayMs * 32);
    for (let failures = 0; ; failures++) {
      try {
        await this.options.write(batch.map((p) => p.item));
        for (const p of batch) p.done();
        batch.length = 0;
        return;
      } catch (error) {
        if (this.#stopped) {
          this.options.logger.error({ err: error }, `${this.options.what}: write failed at stop`);
          const stopped = new Error(`${this.options.what}: stopped before it was written`);
          for (const p of batch) p.fail(stopped);
          batch.length = 0;
          return;
        }
        const retryInMs = backoff.nextDelayMs();
        this.options.logger[failures === 0 ? 'error' : 'warn'](
          { err: error, items: batch.length, retryInMs },
          `${this.options.what}: write failed; retrying`,
        );
        await sleep(this.options.timers, retryInMs);
      }
    }
  }
}
