// SMPP 3.4 §4.11: enquire_link checks the link when it has been quiet. A TCP connection can stay
// "open" for a long time after the SMSC behind it is gone; an unanswered enquire_link is how a
// session learns that it is dead.
import { performance } from 'node:perf_hooks';

export class EnquireLinkTimer {
  private timer: NodeJS.Timeout | null = null;
  private lastReceivedAt = performance.now();
  private stopped = false;

  /**
   * `enquire` sends enquire_link and settles with its response; when it rejects (no answer within
   * the response timeout) `onDead` is called and the timer stops.
   */
  constructor(
    private readonly intervalMs: number,
    private readonly enquire: () => Promise<unknown>,
    private readonly onDead: (error: Error) => void,
  ) {}

  /** A PDU came in: the link is alive for another interval. */
  received(): void {
    this.lastReceivedAt = performance.now();
  }

  start(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const quietMs = performance.now() - this.lastReceivedAt;
      if (quietMs < this.intervalMs) return this.start(this.intervalMs - quietMs);
      this.enquire().then(
        () => this.start(),
        (error: Error) => this.onDead(error),
      );
    }, delayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
