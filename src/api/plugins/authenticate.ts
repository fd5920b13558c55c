import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  authenticate,
  requireScope,
  type Caller,
  type RequiredScope,
} from '../../domain/accounts/authenticate.js';
import type { Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import type { Store } from '../../domain/store.js';
import type { FailedAuthentications, RateLimiter } from './rate-limit.js';
import { isStoreUnavailable } from '../../domain/store-unavailable.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's caller, set by the access hook on every route that declares a scope. */
    caller: Caller;
  }
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * The access guard of routes declared `{ scope }`: a valid `x-api-key` whose scopes grant it.
 * Failed authentications are counted per client address, and past their limit the address is
 * refused (429) before any key is looked up. Requests are counted against the key's rate limit
 * (a refused scope counts too);
 * `last_used_at` is written at most once a minute per key.
 */
export function apiKeyGuard(deps: {
  store: Store;
  clock: Clock;
  limiter: RateLimiter;
  failures: FailedAuthentications;
}) {
  const lastTouched = new Map<number, number>();
  return async (request: FastifyRequest, reply: FastifyReply, scope: RequiredScope) => {
    const now = deps.clock.now();
    // An address that failed too often is refused before its key costs a lookup.
    const retryAfter = deps.failures.refusedFor(request.ip, now);
    if (retryAfter !== null) {
      reply.header('Retry-After', retryAfter);
      throw new DomainError(
        'RATE_LIMITED',
        `Too many failed authentications from this address (${deps.failures.limit}); retry after ${retryAfter} s`,
      );
    }
    const header = request.headers['x-api-key'];
    let caller: Caller;
    try {
      caller = await authenticate(deps.store, typeof header === 'string' ? header : undefined);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED')
        deps.failures.note(request.ip, now);
      throw error;
    }
    request.caller = caller;
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
    requireScope(caller, scope);
    if (now - (lastTouched.get(caller.apiKeyId) ?? 0) >= TOUCH_INTERVAL_MS) {
      lastTouched.set(caller.apiKeyId, now);
      try {
        await deps.store.touchApiKey(caller.apiKeyId, now);
      } catch (error) {
        // A store refusing writes (disk full) still serves reads: `last_used_at` is a hint
        // and is written on a later request, not a reason to refuse this one.
        if (!isStoreUnavailable(error)) throw error;
        lastTouched.delete(caller.apiKeyId);
        request.log.warn({ err: error }, 'could not note when the key was last used');
      }
    }
  };
}
