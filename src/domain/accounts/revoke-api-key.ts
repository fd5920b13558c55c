import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key-store.js';

/**
 * Revokes an API key; its next request answers 401. Revoking a revoked key changes nothing and
 * is not an error, so an operator can safely repeat the command. With `accountId` (an owner
 * acting on their account) another account's key is FORBIDDEN, as on /api/v2.
 */
export async function revokeApiKey(
  store: Transactor<ApiKeyStore & AuditStore>,
  input: { keyId: number; nowMs: number; accountId?: number; actor: AuditActor },
): Promise<{ record: ApiKeyRecord; alreadyRevoked: boolean }> {
  return store.transaction(async (tx) => {
    const found = await tx.findApiKey(input.keyId);
    if (!found)
      throw new DomainError('NOT_FOUND', `API key ${input.keyId} does not exist; check the key id`);
    if (input.accountId !== undefined && found.accountId !== input.accountId) {
      throw new DomainError('FORBIDDEN', `API key ${input.keyId} belongs to another account`);
    }
    const revoked = await tx.revokeApiKey(found.id, input.nowMs);
    if (revoked) {
      await recordAudit(tx, {
        ...input.actor,
        accountId: found.accountId,
        action: 'api-key.revoke',
        targetType: 'api-key',
        targetId: found.id,
        detail: { name: found.name, prefix: found.prefix },
        at: input.nowMs,
      });
    }
    const record = (await tx.findApiKey(found.id)) ?? found;
    return { record, alreadyRevoked: !revoked };
  });
}
