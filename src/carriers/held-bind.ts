// One bind of a carrier, held open: connected and bound, and opened again after a backoff
// whenever it cannot be opened or closes, for whatever reason, until stop(). The session below
// never reconnects (see smpp-session.ts); this is where that happens.
import type { Logger } from 'pino';
import { connectSession } from './smpp/connect-session.js';
import type { SessionClose, SessionOptions } from './smpp/session-options.js';
import { BindRefusedError } from './smpp/smpp-errors.js';
import type { SmppSession } from './smpp/smpp-session.js';
import { ReconnectBackoff } from '../domain/reconnect-backoff.js';

/**
 * A bind that stayed up this long was healthy: its next failure starts the backoff again. A
 * shorter-lived one (an SMSC that accepts binds and drops them at once) keeps doubling it.
 */
const STABLE_BIND_MS = 30_000;

export interface HeldBindOptions {
  /** For logs: "transceiver 1", "receiver 2". */
  readonly label: string;
  readonly session: SessionOptions;
  readonly reconnect: { readonly initialDelayMs: number; readonly maxDelayMs: number };
  readonly logger: Logger;
  /** Milliseconds, monotonic. */
  readonly now: () => number;
  /** The bind went up or down; `session` already says which. */
  readonly onChange: () => void;
  /** It failed to open or closed on its own: why, for the operator. */
  readonly onError: (message: string) => void;
}

export class HeldBind {
  private current: SmppSession | null = null;
  private boundAt = 0;
  private started = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private readonly backoff: ReconnectBackoff;

  constructor(private readonly options: HeldBindOptions) {
    this.backoff = new ReconnectBackoff(
      options.reconnect.initialDelayMs,
      options.reconnect.maxDelayMs,
    );
  }

  /** The session while it is bound; null while connecting, waiting to reconnect, or stopped. */
  get session(): SmppSession | null {
    return this.current !== null && this.current.bound ? this.current : null;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.open();
  }

  /**
   * Stops reopening it, aborts an attempt under way, and unbinds the session (what is in flight
   * is answered or failed within `timeoutMs`). Resolves once its socket is closed.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.abort.abort();
    if (this.connecting) await this.connecting;
    if (this.current) await this.current.unbind(timeoutMs);
  }

  private open(): void {
    this.retryTimer = null;
    this.connecting = connectSession(this.options.session, this.abort.signal).then(
      (session) => {
        this.connecting = null;
        this.bound(session);
      },
      (error: unknown) => {
        this.connecting = null;
        this.failed(error);
      },
    );
  }

  private bound(session: SmppSession): void {
    this.current = session;
    this.boundAt = this.options.now();
    void session.closed.then((close) => this.closed(session, close));
    // A stop() during the bind's last moment finds the session here and unbinds it.
    if (this.stopped) return;
    this.options.logger.info({ bind: this.options.label }, 'bind up');
    this.options.onChange();
  }

  private closed(session: SmppSession, close: SessionClose): void {
    if (this.current === session) this.current = null;
    const reason = close.error ? `${close.reason}: ${close.error.message}` : close.reason;
    if (this.options.now() - this.boundAt >= STABLE_BIND_MS) this.backoff.reset();
    this.options.onChange();
    if (this.stopped) {
      this.options.logger.info({ bind: this.options.label, reason }, 'bind down');
      return;
    }
    this.options.onError(`${this.options.label} closed: ${reason}`);
    const retryInMs = this.retryLater();
    this.options.logger.info({ bind: this.options.label, reason, retryInMs }, 'bind down');
  }

  private failed(error: unknown): void {
    if (this.stopped) return;
    const retryInMs = this.retryLater();
    const bind = this.options.label;
    if (error instanceof BindRefusedError) {
      const commandStatus = `0x${error.commandStatus.toString(16).padStart(8, '0')}`;
      this.options.onError(`${bind} refused with command_status ${commandStatus}`);
      this.options.logger.warn({ bind, commandStatus, retryInMs }, 'bind refused');
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.onError(`${bind} failed: ${reason}`);
      this.options.logger.info({ bind, reason, retryInMs }, 'bind failed');
    }
  }

  private retryLater(): number {
    const delayMs = this.backoff.nextDelayMs();
    this.retryTimer = setTimeout(() => this.open(), delayMs);
    return delayMs;
  }
}
