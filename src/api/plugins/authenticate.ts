import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiKeyPrefix } from '../../domain/accounts/api-key.js';
import { authenticate, type Caller } from '../../domain/accounts/authenticate.js';
import type { Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import type { Store } from '../../domain/ports.js';
import type { RateLimiter } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    /** On routes that read in parallel with authentication: the caller, once known. */
    callerPending: Promise<Caller> | null;
  }
  interface FastifyContextConfig {
    /**
     * The handler may start its reads before the key is checked and await `callerPending` with
     * them: one round trip less. It must answer nothing it read before the caller is known
     * (a read of a message by uuid, checked for ownership after).
     */
    authenticateAlongside?: boolean;
  }
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Every route registered in `app`'s scope needs a valid `x-api-key`; requests are then counted
 * against the key's rate limit. `last_used_at` is written at most once a minute per key.
 */
export function requireApiKey(
  app: FastifyInstance,
  deps: { store: Store; clock: Clock; limiter: RateLimiter },
): void {
  const lastTouched = new Map<number, number>();
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('callerPending', null);

  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    const header = request.headers['x-api-key'];
    const caller = await authenticate(deps.store, typeof header === 'string' ? header : undefined);
    request.caller = caller;
    const now = deps.clock.now();
    const verdict = deps.limiter.take(caller.apiKeyId, caller.rateLimitRequests, now);
    reply.header('RateLimit-Limit', verdict.limit);
    reply.header('RateLimit-Remaining', verdict.remaining);
    reply.header('RateLimit-Reset', verdict.resetSeconds);
    if (!verdict.allowed) {
      reply.header('Retry-After', verdict.resetSeconds);
      throw new DomainError(
        'RATE_LIMITED',
        `Rate limit of ${verdict.limit} requests exceeded; retry after ${verdict.resetSeconds} s`,
      );
    }
    if (now - (lastTouched.get(caller.apiKeyId) ?? 0) >= TOUCH_INTERVAL_MS) {
      lastTouched.set(caller.apiKeyId, now);
      await deps.store.touchApiKey(caller.apiKeyId, now);
    }
    return caller;
  }

  app.addHook('onRequest', async (request, reply) => {
    // A request without a well-formed key is refused here, before any read it could cause.
    const header = request.headers['x-api-key'];
    const wellFormed = typeof header === 'string' && apiKeyPrefix(header) !== null;
    if (request.routeOptions.config.authenticateAlongside && wellFormed) {
      const pending = admit(request, reply);
      pending.catch(() => undefined); // the handler awaits it; no unhandled rejection meanwhile
      request.callerPending = pending;
      return;
    }
    await admit(request, reply);
  });
}

/** The caller's account id: at once, or once authentication alongside the reads is done. */
export function callerAccountId(request: FastifyRequest): Promise<number> | number {
  return request.callerPending
    ? request.callerPending.then((caller) => caller.accountId)
    : request.caller.accountId;
}
