/**
 * Items due at a time, delivered in batches by one interval timer that runs only while items
 * wait: receipts and delayed responses at thousands a second would otherwise each cost a
 * setTimeout. Items due in the same `tickMs` slot come out together, in scheduling order.
 */
export class TimerWheel<T> {
  private readonly slots = new Map<number, T[]>();
  private timer: NodeJS.Timeout | null = null;
  private count = 0;

  constructor(
    private readonly onDue: (items: T[]) => void,
    private readonly tickMs = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** Items waiting. */
  get size(): number {
    return this.count;
  }

  schedule(item: T, dueAtMs: number): void {
    const slot = Math.ceil(dueAtMs / this.tickMs);
    const items = this.slots.get(slot);
    if (items === undefined) this.slots.set(slot, [item]);
    else items.push(item);
    this.count += 1;
    if (this.timer === null) this.timer = setInterval(() => this.flush(this.now()), this.tickMs);
  }

  /** Hands every item due by `nowMs` to onDue, earliest slot first. */
  flush(nowMs: number): void {
    const current = Math.floor(nowMs / this.tickMs);
    const due = [...this.slots.keys()].filter((slot) => slot <= current).sort((a, b) => a - b);
    for (const slot of due) {
      const items = this.slots.get(slot)!;
      this.slots.delete(slot);
      this.count -= items.length;
      this.onDue(items);
    }
    if (this.count === 0) this.stopTimer();
  }

  /** Forgets every waiting item and stops the timer. */
  close(): void {
    this.slots.clear();
    this.count = 0;
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
