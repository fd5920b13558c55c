import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ExplainedError } from '../domain/explained-error.js';

/**
 * The parts of a process started so far, each with how to stop it; stopped in the reverse
 * order, so that nothing outlives what it uses. A part that fails to stop is logged and the
 * others still stop.
 */
export class StartedParts {
  readonly #stops: (() => Promise<void>)[] = [];

  constructor(private readonly logger: Logger) {}

  push(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }

  async stopAll(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        this.logger.error({ err: error }, 'a part failed to stop');
      }
    }
  }
}

/**
 * Closes an HTTP app: no new connections, idle ones closed at once (Fastify's default), and the
 * requests in flight given `drainMs` to end. Past it their connections are cut, so that a client
 * holding one open (a body that never ends, an answer nobody reads) cannot keep the process from
 * stopping. A request cut short has not been answered: what it changed is committed whole or
 * not at all, and the client sends it again (a send, with the same Idempotency-Key).
 */
export async function closeWithin(
  app: FastifyInstance,
  drainMs: number,
  logger: Logger,
): Promise<void> {
  const cut = setTimeout(() => {
    logger.warn({ drainMs }, 'requests still in flight at the end of the drain; cutting them');
    app.server.closeAllConnections();
  }, drainMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/**
 * Listens, or throws an error that says what could not listen, where, which settings to change
 * and why, e.g. "Cannot listen for the API on 127.0.0.1:8080 (NOK_HOST, NOK_PORT): listen
 * EADDRINUSE: address already in use 127.0.0.1:8080".
 */
export async function listenOrExplain(
  app: FastifyInstance,
  address: { readonly host: string; readonly port: number },
  about: { readonly what: string; readonly settings: string },
): Promise<string> {
  try {
    return await app.listen({
      host: address.host,
      port: address.port,
      listenTextResolver: (url) => `listening for ${about.what} at ${url}`,
    });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw new ExplainedError(
      `Cannot listen for ${about.what} on ${address.host}:${address.port} (${about.settings}): ${describeError(error)}`,
      { cause: error },
    );
  }
}

/**
 * An error as one line of text: its message, or for an AggregateError without one (a host
 * name with several addresses, none reachable) the messages of its errors.
 */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    return error.errors.map(describeError).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const text = error.message || (typeof code === 'string' ? code : error.name);
    return text.replace(/\s*\n\s*/g, ' ');
  }
  return String(error).replace(/\s*\n\s*/g, ' ');
}
