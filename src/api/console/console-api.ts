import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../domain/ports.js';
import type { SessionLimits } from '../../domain/users/sessions.js';
import type { SignInLimits } from '../../domain/users/sign-in.js';
import type { ReadOpsStatus } from '../../ops/ops-status.js';
import { adminAccountRoutes } from './routes/admin-accounts.js';
import { adminCarrierRoutes } from './routes/admin-carriers.js';
import { creditRoutes } from './routes/credits.js';
import { keyRoutes } from './routes/keys.js';
import { auditRoutes } from './routes/audit.js';
import { adminSenderRoutes } from './routes/admin-senders.js';
import { senderRoutes } from './routes/senders.js';
import { sessionRoutes } from './routes/session.js';

/** What every console route plugin is given. */
export interface ConsoleDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly sessionLimits: SessionLimits;
  readonly signInLimits: SignInLimits;
  /** The largest document of a sender-name request, each (NOK_SENDER_DOCUMENT_MAX_BYTES). */
  readonly senderDocumentMaxBytes: number;
  /** This process's operator status (what /status shows), for the carriers page. */
  readonly opsStatus?: ReadOpsStatus;
}

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
      });
      api.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () =>
        (api as unknown as { consoleSwagger(): unknown }).consoleSwagger(),
      );
      await api.register(sessionRoutes, deps);
      await api.register(auditRoutes, deps);
      await api.register(senderRoutes, deps);
      await api.register(adminSenderRoutes, deps);
      await api.register(keyRoutes, deps);
      await api.register(creditRoutes, deps);
      await api.register(adminAccountRoutes, deps);
      await api.register(adminCarrierRoutes, deps);
    },
    { prefix: CONSOLE_API_PREFIX },
  );
}
