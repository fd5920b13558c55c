// Requests sent and not yet answered, by sequence_number, each with a deadline. One timer serves
// them all, armed for the earliest deadline: at tens of thousands of submits a second, a timer
// per PDU would cost more than the PDU.
import { performance } from 'node:perf_hooks';
import type { Pdu } from './pdu.js';

export interface PendingRequest {
  /** The request's command name, for errors and logs. */
  readonly command: string;
  /** performance.now() after which the request has timed out. */
  readonly deadline: number;
  readonly timeoutMs: number;
  /** Counts against the submit window (submit_sm); enquire_link, unbind and bind do not. */
  readonly isSubmit: boolean;
  /** Called with the response PDU (or a generic_nack carrying the same sequence_number). */
  settle(response: Pdu): void;
  fail(error: Error): void;
}

export class PendingRequests {
  private readonly bySequence = new Map<number, PendingRequest>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private submits = 0;

  /** `onTimeout` is called for each request whose deadline passed, after it was removed. */
  constructor(
    private readonly onTimeout: (request: PendingRequest, sequenceNumber: number) => void,
  ) {}

  /** Submits awaiting their submit_sm_resp. */
  get submitsInFlight(): number {
    return this.submits;
  }

  get size(): number {
    return this.bySequence.size;
  }

  add(sequenceNumber: number, request: PendingRequest): void {
    this.bySequence.set(sequenceNumber, request);
    if (request.isSubmit) this.submits++;
    if (request.deadline < this.timerAt) this.arm(request.deadline);
  }

  /** Removes and returns the request a response answers; undefined for a late or stray one. */
  take(sequenceNumber: number): PendingRequest | undefined {
    const request = this.bySequence.get(sequenceNumber);
    if (request) this.remove(sequenceNumber, request);
    // The timer stays armed: when it fires it finds nothing due and re-arms for the next.
    return request;
  }

  /** Fails every request with `error` and stops the timer. */
  failAll(error: Error): void {
    const requests = [...this.bySequence.values()];
    this.bySequence.clear();
    this.submits = 0;
    this.stop();
    for (const request of requests) request.fail(error);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  private remove(sequenceNumber: number, request: PendingRequest): void {
    this.bySequence.delete(sequenceNumber);
    if (request.isSubmit) this.submits--;
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.sweep, Math.max(0, at - performance.now()));
  }

  private readonly sweep = (): void => {
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [sequenceNumber, request] of this.bySequence) {
      if (request.deadline <= now) {
        this.remove(sequenceNumber, request);
        this.onTimeout(request, sequenceNumber);
      } else if (request.deadline < next) next = request.deadline;
    }
    // onTimeout may have sent more (armed already, maybe later than `next`) or closed the session
    // and failed everything (then nothing is re-armed).
    if (next < this.timerAt && this.bySequence.size > 0) this.arm(next);
  };
}
