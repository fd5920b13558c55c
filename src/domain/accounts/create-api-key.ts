import { invalidParameter } from '../errors.js';
import type { ApiKeyRecord, Store } from '../ports.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../statuses.js';
import { generateApiKey } from './api-key.js';
import { requireAccount } from './require-account.js';

export interface CreatedApiKey {
  readonly record: ApiKeyRecord;
  /** The whole key: shown to its owner once, never stored (only its hash is). */
  readonly key: string;
}

/** Creates an API key for an existing account with the given scopes (at least one). */
export async function createApiKey(
  store: Store,
  input: { accountId: number; scopes: readonly string[]; name?: string; nowMs: number },
): Promise<CreatedApiKey> {
  const scopes = checkScopes(input.scopes);
  const name = input.name?.trim() || 'default';
  await requireAccount(store, input.accountId);
  const generated = generateApiKey();
  const record = await store.createApiKey({
    accountId: input.accountId,
    name,
    prefix: generated.prefix,
    secretHash: generated.secretHash,
    scopes,
    nowMs: input.nowMs,
  });
  return { record, key: generated.key };
}

function checkScopes(scopes: readonly string[]): ApiKeyScope[] {
  if (scopes.length === 0)
    throw invalidParameter(`give at least one scope: ${API_KEY_SCOPES.join(', ')}`);
  const known = new Set<string>(API_KEY_SCOPES);
  const unknown = scopes.filter((scope) => !known.has(scope));
  if (unknown.length > 0) {
    throw invalidParameter(
      `unknown scope ${unknown.join(', ')}; use one of ${API_KEY_SCOPES.join(', ')}`,
    );
  }
  return [...new Set(scopes)] as ApiKeyScope[];
}
