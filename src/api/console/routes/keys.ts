import type { FastifyPluginAsync } from 'fastify';
import { createApiKey } from '../../../domain/accounts/create-api-key.js';
import { revokeApiKey } from '../../../domain/accounts/revoke-api-key.js';
import type { ApiKeyRecord } from '../../../domain/accounts/api-key-store.js';
import { type ApiKey } from '../contract/keys.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';

const owner = { access: { role: 'owner' } } as const;
const tags = ['api keys'];

/** The owner's API keys: list, create (the whole key answered once), revoke. */
export const keyRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { store, clock }) => {
  consoleRoute(
    app,
    'GET /keys',
    {
      tags,
      summary: "The account's API keys, newest first, revoked ones too",
      config: owner,
    },
    async (request) => ({
      data: (await store.listApiKeys(consoleAccountId(request))).map(presentKey),
    }),
  );

  consoleRoute(
    app,
    'POST /keys',
    {
      tags,
      summary: 'Create an API key',
      description:
        'Answers the whole key (`secret`) this once: only its hash is stored. The audit log records its prefix, never the key.',
      config: owner,
    },
    async (request) => {
      const { record, key } = await createApiKey(store, {
        accountId: consoleAccountId(request),
        name: request.body.name,
        scopes: request.body.scopes,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { apiKey: presentKey(record), secret: key };
    },
  );

  consoleRoute(
    app,
    'DELETE /keys/:keyId',
    {
      tags,
      summary: 'Revoke an API key',
      description:
        'The key answers 401 on /api/v2 from the next request. Revoking a revoked key changes nothing. Another account’s key is 403.',
      config: owner,
    },
    async (request) => {
      const { record } = await revokeApiKey(store, {
        keyId: request.params.keyId,
        accountId: consoleAccountId(request),
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return presentKey(record);
    },
  );
};

function presentKey(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    scopes: [...record.scopes],
    createdAt: iso(record.createdAt),
    lastUsedAt: record.lastUsedAt === null ? null : iso(record.lastUsedAt),
    revokedAt: record.revokedAt === null ? null : iso(record.revokedAt),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
