import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { CarrierDownError } from './carrier-down-error.js';
import type { CarrierSettings } from './carrier-config.js';
import { ReconnectBackoff } from './reconnect-backoff.js';
import { connectSession } from './smpp/connect-session.js';
import type { BindMode } from './smpp/pdu.js';
import type { DeliverHandler, SubmitResult } from './smpp/session-options.js';
import type { ShortMessageInput } from './smpp/short-message-fields.js';
import { BindRefusedError } from './smpp/smpp-errors.js';
import type { SmppSession } from './smpp/smpp-session.js';
import { SubmitRateLimiter } from './submit-rate-limiter.js';

export interface CarrierStatus {
  readonly name: string;
  /** Binds that can submit (transceivers or transmitters) bound now. */
  readonly bindsUp: number;
  readonly bindsWanted: number;
  readonly receiversUp: number;
  readonly inFlight: number;
  /** Submits waiting for a window slot or for the rate limit. */
  readonly waiting: number;
  readonly submitsPerSecondLimit: number;
  /** The rate the carrier gets now: the limit, or less while it throttles. */
  readonly currentRatePerSecond: number;
  readonly lastError: string | null;
}

export interface CarrierBinds {
  readonly name: string;
  /** At least one bind that can submit is bound. */
  readonly up: boolean;
  /** Opens the binds and keeps them open, reconnecting with backoff, until stop(). */
  start(): void;
  /**
   * Submits through the bound session with the most room, once the carrier's rate allows.
   * Rejects at once with CarrierDownError when no bind can submit; SessionClosedError and
   * ResponseTimeoutError of the session pass through (the part is retried).
   */
  submit(input: ShortMessageInput): Promise<SubmitResult>;
  /** The carrier answered ESME_RTHROTTLED or ESME_RMSGQFUL: slow down. */
  throttled(): void;
  /** Unbinds every bind (in-flight submits answered or failed) and stops reconnecting. */
  stop(timeoutMs: number): Promise<void>;
  status(): CarrierStatus;
}

/** A bind that stayed up this long starts its next reconnect from the initial delay again. */
const STABLE_MS = 30_000;

interface BindSlot {
  readonly mode: BindMode;
  session: SmppSession | null;
  backoff: ReconnectBackoff;
  timer: NodeJS.Timeout | null;
  connecting: AbortController | null;
  upSince: number;
}

/**
 * A carrier's binds (carrier file): `binds` transceivers, or as many transmitter + receiver
 * pairs, each reopened with backoff whenever it fails or closes. Submits share the carrier's
 * submits per second (one token bucket for all binds) and go to the bound session with the
 * fewest submits in flight or waiting, so every window is used. Every deliver_sm of every bind
 * goes to `onDeliver`.
 */
export function createCarrierBinds(
  settings: CarrierSettings,
  deps: { logger: Logger; onDeliver: DeliverHandler },
): CarrierBinds {
  const { logger } = deps;
  const limiter = new SubmitRateLimiter(settings.submitsPerSecond);
  const modes: BindMode[] =
    settings.bindMode === 'transceiver' ? ['transceiver'] : ['transmitter', 'receiver'];
  const slots: BindSlot[] = [];
  for (let i = 0; i < settings.binds; i++) {
    for (const mode of modes) {
      slots.push({
        mode,
        session: null,
        backoff: new ReconnectBackoff(
          settings.reconnect.initialDelayMs,
          settings.reconnect.maxDelayMs,
        ),
        timer: null,
        connecting: null,
        upSince: 0,
      });
    }
  }
  const submitting = slots.filter((slot) => slot.mode !== 'receiver');
  let stopped = false;
  let lastError: string | null = null;

  function open(slot: BindSlot): void {
    slot.timer = null;
    if (stopped) return;
    const abort = new AbortController();
    slot.connecting = abort;
    connectSession(
      {
        host: settings.host,
        port: settings.port,
        mode: slot.mode,
        systemId: settings.systemId,
        password: settings.password,
        systemType: settings.systemType,
        windowSize: settings.windowSize,
        responseTimeoutMs: settings.responseTimeoutMs,
        enquireLinkIntervalMs: settings.enquireLinkIntervalMs,
        connectTimeoutMs: settings.responseTimeoutMs,
        onDeliver: deps.onDeliver,
      },
      abort.signal,
    ).then(
      (session) => {
        slot.connecting = null;
        if (stopped) {
          void session.unbind(settings.responseTimeoutMs);
          return;
        }
        slot.session = session;
        slot.upSince = performance.now();
        logger.info({ mode: slot.mode }, 'bind up');
        void session.closed.then((close) => {
          slot.session = null;
          if (performance.now() - slot.upSince >= STABLE_MS) slot.backoff.reset();
          if (!stopped) {
            lastError = `bind closed: ${close.reason}`;
            logger.info({ mode: slot.mode, reason: close.reason, err: close.error }, 'bind down');
          }
          reopenLater(slot);
        });
      },
      (error: unknown) => {
        slot.connecting = null;
        if (stopped) return;
        lastError = error instanceof Error ? error.message : String(error);
        if (error instanceof BindRefusedError) {
          logger.warn({ mode: slot.mode, commandStatus: error.commandStatus }, 'bind refused');
        } else {
          logger.info({ mode: slot.mode, err: error }, 'bind failed');
        }
        reopenLater(slot);
      },
    );
  }

  function reopenLater(slot: BindSlot): void {
    if (stopped) return;
    slot.timer = setTimeout(() => open(slot), slot.backoff.nextDelayMs());
  }

  /** The bound submitting session with the most room, or null. */
  function pick(): SmppSession | null {
    let best: SmppSession | null = null;
    let bestLoad = Infinity;
    for (const slot of submitting) {
      const session = slot.session;
      if (!session?.bound) continue;
      const load = session.inFlight + session.waiting;
      if (load < bestLoad) {
        best = session;
        bestLoad = load;
      }
    }
    return best;
  }

  function down(): CarrierDownError {
    return new CarrierDownError(settings.name, stopped ? 'stopping' : (lastError ?? 'not bound'));
  }

  return {
    name: settings.name,
    get up() {
      return pick() !== null;
    },
    start() {
      for (const slot of slots) if (!slot.session && !slot.connecting && !slot.timer) open(slot);
    },
    submit(input) {
      if (stopped || !pick()) return Promise.reject(down());
      const wait = limiter.take();
      if (wait === null) return pick()!.submit(input);
      return wait.then(() => {
        const session = pick();
        if (!session) throw down();
        return session.submit(input);
      });
    },
    throttled: () => limiter.throttled(),
    async stop(timeoutMs) {
      stopped = true;
      limiter.failAll(down());
      for (const slot of slots) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.connecting?.abort();
      }
      await Promise.all(slots.map((slot) => slot.session?.unbind(timeoutMs) ?? Promise.resolve()));
    },
    status() {
      let inFlight = 0;
      let waiting = limiter.waiting;
      for (const slot of submitting) {
        inFlight += slot.session?.inFlight ?? 0;
        waiting += slot.session?.waiting ?? 0;
      }
      return {
        name: settings.name,
        bindsUp: submitting.filter((slot) => slot.session?.bound).length,
        bindsWanted: submitting.length,
        receiversUp: slots.filter((slot) => slot.mode === 'receiver' && slot.session?.bound).length,
        inFlight,
        waiting,
        submitsPerSecondLimit: settings.submitsPerSecond,
        currentRatePerSecond: Math.round(limiter.ratePerSecond),
        lastError,
      };
    },
  };
}
