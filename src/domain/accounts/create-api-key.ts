import type { Transactor } from '../transactor.js';
import type { AccountStore } from './account-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { invalidParameter } from '../errors.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key-store.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../statuses.js';
import { generateApiKey } from './api-key.js';
import { requireAccount } from './require-account.js';

export interface CreatedApiKey {
  readonly record: ApiKeyRecord;
  /** The whole key: shown to its owner once, never stored (only its hash is). */
  readonly key: string;
}

/**
 * Creates an API key for an existing account with the given scopes (at least one), and its
 * audit line (with the key's prefix, never the key) in the same transaction.
 */
export async function createApiKey(
  store: Transactor<AccountStore & ApiKeyStore & AuditStore>,
  input: {
    accountId: number;
    scopes: readonly string[];
    name?: string;
    nowMs: number;
    actor: AuditActor;
  },
): Promise<CreatedApiKey> {
  const scopes = checkScopes(input.scopes);
  const name = input.name?.trim() || 'default';
  const generated = generateApiKey();
  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    const record = await tx.createApiKey({
      accountId: input.accountId,
      name,
      prefix: generated.prefix,
      secretHash: generated.secretHash,
      scopes,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'api-key.create',
      targetType: 'api-key',
      targetId: record.id,
      detail: { name, prefix: record.prefix, scopes },
      at: input.nowMs,
    });
    return { record, key: generated.key };
  });
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
