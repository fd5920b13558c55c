import type { ApiKeyStore } from './api-key-store.js';
import { DomainError } from '../errors.js';
import type { ApiKeyScope } from '../statuses.js';
import { apiKeyMatches, apiKeyPrefix } from './api-key.js';

export interface Caller {
  readonly accountId: number;
  readonly apiKeyId: number;
  readonly scopes: readonly ApiKeyScope[];
  readonly rateLimitRequests: number | null;
}

/**
 * Resolves an `x-api-key` value to its caller. A missing, malformed, unknown or revoked key is
 * the same 401; a valid key of a suspended account is 403 ACCOUNT_SUSPENDED.
 */
export async function authenticate(store: ApiKeyStore, key: string | undefined): Promise<Caller> {
  const prefix = key ? apiKeyPrefix(key) : null;
  const found = prefix ? await store.findApiKeyWithAccount(prefix) : null;
  if (!key || !found || !apiKeyMatches(key, found.key.secretHash) || found.key.revokedAt !== null) {
    throw new DomainError(
      'UNAUTHORIZED',
      'Missing or invalid API key: send a valid key in the x-api-key header',
    );
  }
  // Only a valid key learns that its account is suspended; anything else is the same 401.
  if (found.account.status !== 'active') {
    throw new DomainError(
      'ACCOUNT_SUSPENDED',
      'This account is suspended: its API keys cannot be used until the platform reactivates it',
    );
  }
  return {
    accountId: found.key.accountId,
    apiKeyId: found.key.id,
    scopes: found.key.scopes,
    rateLimitRequests: found.account.rateLimitRequests,
  };
}

/** What a route can ask of a key; `*` is a key's scope, never a route's need. */
export type RequiredScope = Exclude<ApiKeyScope, '*'>;

/**
 * What each scope of a key grants. Spec §5 gives a send key every endpoint, so `sms:send`
 * includes reading; `sms:read` is read-only: it cannot send, nor cancel (which moves credits).
 */
const GRANTS: Readonly<Record<ApiKeyScope, readonly RequiredScope[]>> = {
  '*': ['sms:send', 'sms:read'],
  'sms:send': ['sms:send', 'sms:read'],
  'sms:read': ['sms:read'],
};

/** Refuses, with 403 SCOPE_INSUFFICIENT, a caller none of whose scopes grants `needed`. */
export function requireScope(caller: Caller, needed: RequiredScope): void {
  if (!caller.scopes.some((scope) => GRANTS[scope].includes(needed))) {
    throw new DomainError(
      'SCOPE_INSUFFICIENT',
      needed === 'sms:send'
        ? 'This API key is read-only (sms:read): sending and cancelling need a key with sms:send or *'
        : `This API key lacks the ${needed} scope; create a key with ${needed} or *`,
    );
  }
}
