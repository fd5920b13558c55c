import { DomainError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../ports.js';

/**
 * Revokes an API key; its next request answers 401. Revoking a revoked key changes nothing and
 * is not an error, so an operator can safely repeat the command. With `accountId` (an owner
 * acting on their account) another account's key is FORBIDDEN, as on /api/v2.
 */
export async function revokeApiKey(
  store: Store,
  input: { keyId: number; nowMs: number; accountId?: number },
): Promise<{ record: ApiKeyRecord; alreadyRevoked: boolean }> {
  const record = await store.findApiKey(input.keyId);
  if (!record)
    throw new DomainError('NOT_FOUND', `API key ${input.keyId} does not exist; check the key id`);
  if (input.accountId !== undefined && record.accountId !== input.accountId) {
    throw new DomainError('FORBIDDEN', `API key ${input.keyId} belongs to another account`);
  }
  const revoked = await store.revokeApiKey(record.id, input.nowMs);
  return { record, alreadyRevoked: !revoked };
}
