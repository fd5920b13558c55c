// How long a bind waits before it is opened again. Doubling keeps a carrier that is down or
// refusing binds from being hammered; the jitter keeps binds that fell together (the SMSC
// restarted) from coming back in lockstep.

/** Share of each delay taken off at random: a delay lies in [(1 - JITTER) × d, d]. */
const JITTER = 0.25;

export class ReconnectBackoff {
  private failures = 0;

  constructor(
    private readonly initialDelayMs: number,
    private readonly maxDelayMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * The wait before the next attempt: initialDelayMs doubled for each call since the last reset,
   * at most maxDelayMs, less up to a quarter at random. A quarter and not more, so that each
   * delay is longer than the one before until the ceiling.
   */
  nextDelayMs(): number {
    const ceilingMs = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** this.failures);
    if (ceilingMs < this.maxDelayMs) this.failures++;
    return Math.round(ceilingMs * (1 - JITTER * this.random()));
  }

  /** The bind stayed up: the next failure waits initialDelayMs again. */
  reset(): void {
    this.failures = 0;
  }
}
