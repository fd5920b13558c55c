import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createApiKey } from '../../../domain/accounts/create-api-key.js';
import { revokeApiKey } from '../../../domain/accounts/revoke-api-key.js';
import type { ApiKeyRecord } from '../../../domain/ports.js';
import { errorResponses } from '../contract/common.js';
import {
  apiKeyListSchema,
  apiKeyParamsSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  type ApiKey,
} from '../contract/keys.js';
import type { ConsoleDeps } from '../console-api.js';
import { auditActor, consoleAccountId } from '../console-session.js';

const owner = { access: { role: 'owner' } } as const;
const tags = ['api keys'];

/** The owner's API keys: list, create (the whole key answered once), revoke. */
export const keyRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, { store, clock }) => {
  app.get(
    '/keys',
    {
      schema: {
        tags,
        summary: "The account's API keys, newest first, revoked ones too",
        response: { 200: apiKeyListSchema, ...errorResponses },
      },
      config: owner,
    },
    async (request) => ({
      data: (await store.listApiKeys(consoleAccountId(request))).map(presentKey),
    }),
  );

  app.post(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Create an API key',
        description:
          'Answers the whole key (`secret`) this once: only its hash is stored. The audit log records its prefix, never the key.',
        body: createApiKeyBodySchema,
        response: { 201: createdApiKeySchema, ...errorResponses },
      },
      config: owner,
    },
    async (request, reply) => {
      const { record, key } = await createApiKey(store, {
        accountId: consoleAccountId(request),
        name: request.body.name,
        scopes: request.body.scopes,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      reply.status(201);
      return { apiKey: presentKey(record), secret: key };
    },
  );

  app.delete(
    '/keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          'The key answers 401 on /api/v2 from the next request. Revoking a revoked key changes nothing. Another account’s key is 403.',
        params: apiKeyParamsSchema,
        response: { 200: apiKeySchema, ...errorResponses },
      },
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
