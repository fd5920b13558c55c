import type { Logger } from 'pino';

export interface BatchWriterOptions<T> {
  /** Writes one batch durably; a batch is never written twice at once. */
  readonly write: (items: T[]) => Promise<void>;
  /** Items that start a write at once. */
  readonly maxBatch: number;
  /** How long the first item of a batch waits for company. */
  readonly delayMs: number;
  /** After a failed write, wait this long and write the same items again. */
  readonly retryDelayMs: number;
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
 * the pending adds reject.
 */
export class BatchWriter<T> {
  #queue: Pending<T>[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #stopped = false;
  /** The batch being written, until it is durable. */
  #inWrite: Pending<T>[] = [];

  constructor(private readonly options: BatchWriterOptions<T>) {}

  get pending(): number {
    return this.#queue.length;
  }

  add(item: T): Promise<void> {
    if (this.#stopped) return Promise.reject(new Error(`${this.options.what}: stopped`));
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, done: resolve, fail: reject });
      if (this.#queue.length >= this.options.maxBatch) this.#kick(0);
      else this.#kick(this.options.delayMs);
    });
  }

  /**
   * Writes what is queued now (not what is added meanwhile) and waits for it: one round, so a
   * steady stream of adds cannot keep the caller waiting.
   */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing) await this.#writing;
    if (this.#queue.length > 0) {
      if (!this.#writing) this.#start();
      await this.#writing;
    }
  }

  /** Writes until nothing is queued (for a stop, once nothing is added any more). */
  async drain(): Promise<void> {
    while (this.#writing || this.#queue.length > 0) await this.flush();
  }

  /** Writes what is queued (one try), then refuses more. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#writing;
    if (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      this.#inWrite = batch;
      try {
        await this.options.write(batch.map((p) => p.item));
        for (const p of batch) p.done();
        this.#inWrite = [];
      } catch (error) {
        this.options.logger.error({ err: error }, `${this.options.what}: last write failed`);
      }
    }
    // What is still not durable: the adds reject (a receipt then stays unanswered, and the
    // SMSC sends it again).
    const stopped = new Error(`${this.options.what}: stopped before it was written`);
    for (const p of [...this.#inWrite, ...this.#queue]) p.fail(stopped);
    this.#inWrite = [];
    this.#queue = [];
  }

  #kick(delayMs: number): void {
    if (this.#writing || (this.#timer && delayMs > 0)) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#writing) this.#start();
    }, delayMs);
  }

  #start(): void {
    const batch = this.#queue.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    this.#writing = this.#writeUntilDone(batch).finally(() => {
      this.#writing = undefined;
      if (this.#queue.length > 0 && !this.#stopped) {
        this.#kick(this.#queue.length >= this.options.maxBatch ? 0 : this.options.delayMs);
      }
    });
  }

  async #writeUntilDone(batch: Pending<T>[]): Promise<void> {
    this.#inWrite = batch;
    for (;;) {
      try {
        await this.options.write(batch.map((p) => p.item));
        for (const p of batch) p.done();
        this.#inWrite = [];
        return;
      } catch (error) {
        if (this.#stopped) {
          this.options.logger.error({ err: error }, `${this.options.what}: write failed at stop`);
          return;
        }
        this.options.logger.error(
          { err: error, items: batch.length },
          `${this.options.what}: write failed; retrying`,
        );
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs));
      }
    }
  }
}
