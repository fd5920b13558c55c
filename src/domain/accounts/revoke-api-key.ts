import { DomainError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../ports.js';

/**
 * Revokes an API key; its next request answers 401. Revoking a revoked key changes nothing and
 * is not an error, so an operator can safely repeat the command.
 */
export async function revokeApiKey(
  store: Store,
  input: { keyId: number; nowMs: number },
): Promise<{ record: ApiKeyRecord; alreadyRevoked: boolean }> {
  const record = await store.findApiKey(input.keyId);
  if (!record)
    throw new DomainError('NOT_FOUND', `API key ${input.keyId} does not exist; check the key id`);
  const revoked = await store.revokeApiKey(record.id, input.nowMs);
  return { record, alreadyRevoked: !revoked };
}
