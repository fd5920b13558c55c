// The binds of one carrier: `binds` transceivers, or `binds` pairs of a transmitter and a
// receiver, held open for as long as Nok runs, with the carrier's submits per second shared by
// all of them. More throughput comes from more binds (DESIGN §4), so a submit goes to the bind
// with the most room in its window.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { CarrierDownError } from './carrier-down-error.js';
import type { CarrierStatus } from '../domain/delivery/status-board.js';
import type { CarrierSettings } from './carrier-config.js';
import { HeldBind } from './held-bind.js';
import type { BindMode } from './smpp/pdu.js';
import type { DeliverHandler, SubmitResult } from './smpp/session-options.js';
import type { ShortMessageInput } from './smpp/short-message-fields.js';
import type { SmppSession } from './smpp/smpp-session.js';
import { SubmitRateLimiter } from './submit-rate-limiter.js';

export interface CarrierBindsDeps {
  readonly logger: Logger;
  /** Every deliver_sm of every bind of this carrier; see DeliverHandler. */
  readonly onDeliver: DeliverHandler;
  /** Milliseconds, monotonic (performance.now by default); tests pass a fake clock. */
  readonly now?: () => number;
}

export interface CarrierBinds {
  readonly name: string;
  /** At least one bind that can submit is bound. */
  readonly up: boolean;
  /** Opens the binds and keeps them open, reopening each after a backoff, until stop(). */
  start(): void;
  /**
   * Waits, first come first served, for the carrier's rate limit and a free window slot, then
   * submits on the bound bind with the most free window. Rejects at once with CarrierDownError
   * when no bind can submit (and so do those waiting when the last one goes down); passes on the
   * session's SessionClosedError and ResponseTimeoutError (retry the part) and PduEncodeError
   * (the part cannot be sent).
   */
  submit(input: ShortMessageInput): Promise<SubmitResult>;
  /** The carrier answered ESME_RTHROTTLED or ESME_RMSGQFUL: slow down. */
  throttled(): void;
  /**
   * Stops reopening binds and unbinds every one (in-flight submits are answered or failed within
   * `timeoutMs`); waiting submits fail with CarrierDownError. Resolves once every socket is
   * closed.
   */
  stop(timeoutMs: number): Promise<void>;
  status(): CarrierStatus;
}

/** The binds of one carrier, not yet opened: call start(). */
export function createCarrierBinds(
  settings: CarrierSettings,
  deps: CarrierBindsDeps,
): CarrierBinds {
  return new Binds(settings, deps);
}

/** A submit waiting for the rate limit or a window slot. */
interface WaitingSubmit {
  readonly input: ShortMessageInput;
  resolve(result: Promise<SubmitResult>): void;
  reject(error: Error): void;
}

class Binds implements CarrierBinds {
  readonly name: string;
  /** Transceivers, or transmitters: the binds that submit. */
  private readonly submitters: HeldBind[] = [];
  /** Receivers in transmitter+receiver mode; empty for transceivers. */
  private readonly receivers: HeldBind[] = [];
  private readonly limiter: SubmitRateLimiter<WaitingSubmit>;
  private readonly logger: Logger;
  /** Where the search for the emptiest bind starts, turning, so that ties spread. */
  private nextIndex = 0;
  private wasUp = false;
  private lastError: string | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly settings: CarrierSettings,
    deps: CarrierBindsDeps,
  ) {
    this.name = settings.name;
    this.logger = deps.logger.child({ carrier: settings.name });
    const now = deps.now ?? (() => performance.now());
    this.limiter = new SubmitRateLimiter({
      limitPerSecond: settings.submitsPerSecond,
      now,
      freeSlots: () => this.freeSlots(),
      letGo: (waiter) => this.letGo(waiter),
    });
    const hold = (mode: BindMode, index: number) =>
      new HeldBind({
        label: `${mode} ${index + 1}`,
        session: {
          host: settings.host,
          port: settings.port,
          mode,
          systemId: settings.systemId,
          password: settings.password,
          systemType: settings.systemType,
          // No connect timeout of its own in the settings: an SMSC that takes longer than a
          // response to accept a TCP connection would not answer the bind either.
          connectTimeoutMs: settings.responseTimeoutMs,
          responseTimeoutMs: settings.responseTimeoutMs,
          windowSize: settings.windowSize,
          enquireLinkIntervalMs: settings.enquireLinkIntervalMs,
          onDeliver: deps.onDeliver,
        },
        reconnect: settings.reconnect,
        logger: this.logger,
        now,
        onChange: () => this.bindChanged(),
        onError: (message) => (this.lastError = message),
      });
    const split = settings.bindMode === 'transmitter+receiver';
    for (let i = 0; i < settings.binds; i++) {
      this.submitters.push(hold(split ? 'transmitter' : 'transceiver', i));
      if (split) this.receivers.push(hold('receiver', i));
    }
  }

  get up(): boolean {
    return this.submitters.some((bind) => bind.session !== null);
  }

  start(): void {
    if (this.stopping) return;
    for (const bind of this.submitters) bind.start();
    for (const bind of this.receivers) bind.start();
  }

  submit(input: ShortMessageInput): Promise<SubmitResult> {
    const session = this.emptiestSession();
    if (session === null) return Promise.reject(this.downError());
    if (this.limiter.tryTake()) return session.submit(input);
    return new Promise((resolve, reject) => this.limiter.wait({ input, resolve, reject }));
  }

  throttled(): void {
    const before = this.limiter.ratePerSecond;
    this.limiter.throttled();
    const ratePerSecond = this.limiter.ratePerSecond;
    if (ratePerSecond < before) this.logger.info({ ratePerSecond }, 'carrier throttled us');
  }

  stop(timeoutMs: number): Promise<void> {
    if (this.stopping === null) {
      const binds = [...this.submitters, ...this.receivers];
      // Set first: a bind going down on the way finds the carrier stopping and says so.
      this.stopping = Promise.all(binds.map((bind) => bind.stop(timeoutMs))).then(() => {
        this.logger.info('carrier binds stopped');
      });
      this.failWaiting();
    }
    return this.stopping;
  }

  status(): CarrierStatus {
    let bindsUp = 0;
    let inFlight = 0;
    let waiting = this.limiter.waiting;
    for (const bind of this.submitters) {
      const session = bind.session;
      if (session === null) continue;
      bindsUp++;
      inFlight += session.inFlight;
      waiting += session.waiting;
    }
    const receiving = this.receivers.length > 0 ? this.receivers : this.submitters;
    return {
      name: this.name,
      bindsUp,
      bindsWanted: this.settings.binds,
      receiversUp: receiving.filter((bind) => bind.session !== null).length,
      inFlight,
      waiting,
      submitsPerSecondLimit: this.settings.submitsPerSecond,
      currentRatePerSecond: this.limiter.ratePerSecond,
      lastError: this.lastError,
    };
  }

  /**
   * The bound session with the fewest submits in flight or waiting for its window; null when
   * none is bound or the carrier is stopping. A loop over a handful of binds, no allocation: it
   * runs for every submit.
   */
  private emptiestSession(): SmppSession | null {
    if (this.stopping) return null;
    const binds = this.submitters;
    const count = binds.length;
    const start = this.nextIndex;
    this.nextIndex = start + 1 >= count ? 0 : start + 1;
    let best: SmppSession | null = null;
    let bestLoad = Infinity;
    for (let i = 0; i < count; i++) {
      const session = binds[(start + i) % count]!.session;
      if (session === null) continue;
      const load = session.inFlight + session.waiting;
      if (load < bestLoad) {
        best = session;
        bestLoad = load;
        if (load === 0) break;
      }
    }
    return best;
  }

  /** Its turn came: submitted at once, on the emptiest bind now (binds come and go meanwhile). */
  private letGo(waiter: WaitingSubmit): void {
    const session = this.emptiestSession();
    if (session === null) waiter.reject(this.downError());
    // Resolving with the session's promise settles as it settles, with no callback of ours.
    else waiter.resolve(session.submit(waiter.input));
  }

  private failWaiting(): void {
    const waiting = this.limiter.drain();
    if (waiting.length === 0) return;
    const error = this.downError();
    for (const waiter of waiting) waiter.reject(error);
  }

  /** Submits the bound binds can send now: the free slots of their windows. */
  private freeSlots(): number {
    if (this.stopping) return 0;
    let free = 0;
    for (const bind of this.submitters) {
      const session = bind.session;
      if (session !== null)
        free += Math.max(0, session.windowSize - session.inFlight - session.waiting);
    }
    return free;
  }

  /** When the last bind that can submit goes down, the waiting submits fail now. */
  private bindChanged(): void {
    const up = this.up;
    if (up === this.wasUp) return;
    this.wasUp = up;
    if (this.stopping) return;
    if (up) this.logger.info('carrier up');
    else {
      this.logger.info({ lastError: this.lastError }, 'carrier down');
      this.failWaiting();
    }
  }

  private downError(): CarrierDownError {
    if (this.stopping) return new CarrierDownError(this.name, 'stopping');
    return new CarrierDownError(this.name, this.lastError ?? 'not bound yet');
  }
}
