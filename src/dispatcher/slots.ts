/**
 * A counting semaphore: at most `size` holders at once, waiters served first come first
 * served. `close` wakes every waiter with false (the dispatcher is stopping).
 */
export class Slots {
  #free: number;
  #waiters: ((granted: boolean) => void)[] = [];
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
    else this.#free++;
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter(false);
  }
}
