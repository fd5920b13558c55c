import { DomainError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../ports.js';
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
  const record = key ? await findKey(store, key) : null;
  if (!record || record.revokedAt !== null) {
    throw new DomainError(
      'UNAUTHORIZED',
      'Missing or invalid API key: send a valid key in the x-api-key header',
    );
  }
  const account = await store.findAccount(record.accountId);
  if (!account || account.status !== 'active') {
    throw new DomainError(
      'UNAUTHORIZED',
      'Missing or invalid API key: send a valid key in the x-api-key header',
    );
  }
  return {
    accountId: record.accountId,
    apiKeyId: record.id,
    scopes: record.scopes,
    rateLimitRequests: account.rateLimitRequests,
  };
}

async function findKey(store: Store, key: string): Promise<ApiKeyRecord | null> {
  const prefix = apiKeyPrefix(key);
  if (!prefix) return null;
  const record = await store.findApiKeyByPrefix(prefix);
  return record && apiKeyMatches(key, record.secretHash) ? record : null;
}

export function requireScope(caller: Caller, scope: ApiKeyScope): void {
  if (!caller.scopes.includes('*') && !caller.scopes.includes(scope)) {
    throw new DomainError(
      'SCOPE_INSUFFICIENT',
      `This API key lacks the ${scope} scope; create a key with ${scope} or *`,
    );
  }
}
