import { DomainError } from '../errors.js';
import type { Store } from '../ports.js';
import type { ApiKeyScope } from '../statuses.js';
import { apiKeyMatches, apiKeyPrefix } from './api-key.js';

export interface Caller {
  readonly accountId: number;
  readonly apiKeyId: number;
  readonly scopes: readonly ApiKeyScope[];
  readonly rateLimitRequests: number | null;
}

/** Resolves an `x-api-key` value to its caller; any failure is the same 401. */
export async function authenticate(store: Store, key: string | undefined): Promise<Caller> {
  const prefix = key ? apiKeyPrefix(key) : null;
  const found = prefix ? await store.findApiKeyWithAccount(prefix) : null;
  if (
    !key ||
    !found ||
    !apiKeyMatches(key, found.key.secretHash) ||
    found.key.revokedAt !== null ||
    found.account.status !== 'active'
  ) {
    throw new DomainError(
      'UNAUTHORIZED',
      'Missing or invalid API key: send a valid key in the x-api-key header',
    );
  }
  return {
    accountId: found.key.accountId,
    apiKeyId: found.key.id,
    scopes: found.key.scopes,
    rateLimitRequests: found.account.rateLimitRequests,
  };
}

export function requireScope(caller: Caller, scope: ApiKeyScope): void {
  if (!caller.scopes.includes('*') && !caller.scopes.includes(scope)) {
    throw new DomainError(
      'SCOPE_INSUFFICIENT',
      `This API key lacks the ${scope} scope; create a key with ${scope} or *`,
    );
  }
}
