import type { ApiKeyScope } from '../statuses.js';
import type { Account } from './account-store.js';

export interface ApiKeyRecord {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly prefix: string;
  readonly secretHash: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
}

/** An account's API keys, stored by prefix and secret hash (ADR 0008). */
export interface ApiKeyStore {
  createApiKey(input: {
    accountId: number;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: readonly ApiKeyScope[];
    nowMs: number;
  }): Promise<ApiKeyRecord>;
  findApiKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null>;
  /** A key with what authentication needs of its account, in one round trip. */
  findApiKeyWithAccount(
    prefix: string,
  ): Promise<{ key: ApiKeyRecord; account: Pick<Account, 'status' | 'rateLimitRequests'> } | null>;
  findApiKey(id: number): Promise<ApiKeyRecord | null>;
  revokeApiKey(id: number, nowMs: number): Promise<boolean>;
  touchApiKey(id: number, nowMs: number): Promise<void>;
  /** An account's keys, revoked ones too, newest first. */
  listApiKeys(accountId: number): Promise<ApiKeyRecord[]>;
}
