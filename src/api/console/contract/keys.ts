import { z } from 'zod';
import { endpoints } from './endpoint.js';

/**
 * The console's API keys page (owners only): list, create (the secret shown once), revoke.
 * Shared with the browser: imports nothing but zod.
 */

/** The scopes of the API (spec §5); the domain's API_KEY_SCOPES, which a test keeps equal. */
export const API_KEY_SCOPES = ['*', 'sms:send', 'sms:read'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

export const KEY_NAME_MAX = 64;

export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1).max(KEY_NAME_MAX),
  scopes: z.array(apiKeyScopeSchema).min(1),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** A key as lists show it: never its secret, only the prefix that names it. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to a create: the whole key, shown this once and never again. */
export const createdApiKeySchema = z.object({
  apiKey: apiKeySchema,
  secret: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = z.object({
  keyId: z.coerce.number().int().positive(),
});

export const keyEndpoints = endpoints({
  'GET /keys': { response: apiKeyListSchema },
  'POST /keys': { body: createApiKeyBodySchema, status: 201, response: createdApiKeySchema },
  'DELETE /keys/:keyId': { params: apiKeyParamsSchema, response: apiKeySchema },
});
