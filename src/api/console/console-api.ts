import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { adminAccountRoutes } from './routes/admin-accounts.js';
import { adminCarrierRoutes } from './routes/admin-carriers.js';
import { creditRoutes } from './routes/credits.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { keyRoutes } from './routes/keys.js';
import { webhookRoutes } from './routes/webhooks.js';
import { auditRoutes } from './routes/audit.js';
import { adminSenderRoutes } from './routes/admin-senders.js';
import { senderRoutes } from './routes/senders.js';
import { profileRoutes } from './routes/profile.js';
import { sessionRoutes } from './routes/session.js';
import { adminPeopleRoutes } from './routes/admin-people.js';
import { gettingInRoutes } from './routes/getting-in.js';
import { peopleRoutes } from './routes/people.js';
import { composeRoutes } from './routes/compose.js';
import { templateRoutes } from './routes/templates.js';
import { contactGroupRoutes } from './routes/contact-groups.js';
import { blocklistRoutes } from './routes/blocklist.js';
import { messageRoutes } from './routes/messages.js';
import { adminMessageRoutes } from './routes/admin-messages.js';
import { withUploadBodies } from './upload-request-bodies.js';
import type { ConsoleDeps } from './console-deps.js';

export const CONSOLE_API_PREFIX = '/console/api';

/**
 * The console API under /console/api: JSON, a cookie session, never an API key. Its routes
 * validate and serialise with the zod schemas of `contract/` (which the browser imports too)
 * and are documented at /console/api/openapi.json, apart from /api/v2's document. Every route
 * declares `config: { access: { role } }`; the access hook (`console-session.ts`) enforces it.
 */
export async function consoleApi(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  await app.register(
    async (api) => {
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      await api.register(swagger, {
        decorator: 'consoleSwagger',
        openapi: {
          openapi: '3.1.0',
          info: {
            title: 'Nok console API',
            version: '1.0.0',
            description:
              "The web console's own API: a cookie session (`nok_session`), never an API key. Every state-changing request carries the session's CSRF token as `x-csrf-token` and comes from the console's origin. Errors are `{ error, code }`.",
          },
          components: {
            securitySchemes: {
              session: { type: 'apiKey', in: 'cookie', name: 'nok_session' },
              csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
            },
          },
          security: [{ session: [], csrf: [] }],
        },
        transform: jsonSchemaTransform,
        // Upload routes read their own bodies; their entries in the contract describe them.
        transformObject: (documents) =>
          'openapiObject' in documents
            ? withUploadBodies(documents.openapiObject, CONSOLE_API_PREFIX)
            : documents.swaggerObject,
      });
      api.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () =>
        (api as unknown as { consoleSwagger(): unknown }).consoleSwagger(),
      );
      await api.register(sessionRoutes, deps);
      await api.register(profileRoutes, deps);
      await api.register(auditRoutes, deps);
      await api.register(senderRoutes, deps);
      await api.register(adminSenderRoutes, deps);
      await api.register(keyRoutes, deps);
      await api.register(webhookRoutes, deps);
      await api.register(creditRoutes, deps);
      await api.register(adminAccountRoutes, deps);
      await api.register(adminCarrierRoutes, deps);
      await api.register(gettingInRoutes, deps);
      await api.register(peopleRoutes, deps);
      await api.register(adminPeopleRoutes, deps);
      await api.register(composeRoutes, deps);
      await api.register(templateRoutes, deps);
      await api.register(contactGroupRoutes, deps);
      await api.register(dashboardRoutes, deps);
      await api.register(blocklistRoutes, deps);
      await api.register(messageRoutes, deps);
      await api.register(adminMessageRoutes, deps);
    },
    { prefix: CONSOLE_API_PREFIX },
  );
}
