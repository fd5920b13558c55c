import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Caller } from '../../domain/accounts/authenticate.js';
import type { Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import type { Store } from '../../domain/ports.js';
import type { RateLimiter } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
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
  app.addHook('onRequest', async (request, reply) => {
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
  });
}

export function callerOf(request: FastifyRequest): Caller {
  return request.caller;
}
