/**
 * A counting semaphore: at most `size` holders at once, waiters served first come first
 * served. `close` wakes every waiter with false (the dispatcher is stopping).
 */
export class Slots {
  #free: number;
  #waiters: ((granted: boolean) => void)[] = [];
  #drained: (() => void)[] = [];
  #closed = false;

  constructor(readonly size: number) {
    this.#free = size;
  }

  get inUse(): number {
    return this.size - this.#free;
  }

  acquire(): Promise<boolean> | boolean {
    if (this.#closed) return false;
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next(true);
    else if (++this.#free === this.size) for (const done of this.#drained.splice(0)) done();
  }

  /** Resolves once no slot is held. */
  drained(): Promise<void> {
    if (this.inUse === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter(false);
  }
}
