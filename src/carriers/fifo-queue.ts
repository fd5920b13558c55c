/**
 * First in, first out. An array with a moving head: shift() on an array of thousands of waiters
 * would move them all each time.
 */
export class FifoQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Empties the queue and returns what it held, in order. */
  drain(): T[] {
    const items = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return items;
  }
}
