import fastifyCookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Caller } from '../domain/accounts/authenticate.js';
import type { Clock } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import type { Store } from '../domain/store.js';
import type { DispatchersView } from '../domain/delivery/status-board.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from '../domain/users/sessions.js';
import { DEFAULT_DOCUMENT_MAX_BYTES } from '../domain/senders/sender-request-rules.js';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../domain/users/sign-in-limits.js';
import { CompactListCache } from '../domain/recipients/compact-list-cache.js';
import { withAccess } from './access.js';
import { webhooksDocument } from './contract/webhooks-document.js';
import { installPathIdFormats } from './path-ids.js';
import { consoleApi } from './console/console-api.js';
import { consoleLinks } from '../domain/mail/console-links.js';
import type { Mailer } from '../domain/mail/mailer.js';
import { DEFAULT_LINK_LIFETIMES, type LinkLifetimes } from '../domain/users/invite-person.js';
import {
  DEFAULT_PASSWORD_RESET_LIMITS,
  type PasswordResetLimits,
} from '../domain/users/password-reset.js';
import { createOutbox } from './console/outbox.js';
import { consoleGuard } from './console/console-session.js';
import { installAccessControl } from './plugins/access-control.js';
import { apiKeyGuard } from './plugins/authenticate.js';
import { consoleApp, defaultConsoleDir } from './plugins/console-app.js';
import { installSecurityHeaders } from './plugins/security-headers.js';
import { frameworkErrorHandler, installErrorHandler } from './plugins/error-handler.js';
import { clientErrorHandler, installMethodNotAllowed } from './plugins/method-not-allowed.js';
import { FailedAuthentications, RateLimiter } from './plugins/rate-limit.js';
import { installRequestId, requestIdOptions } from './plugins/request-id.js';
import { accountRoutes } from './routes/account.js';
import { smsSendRoutes } from './routes/sms-send.js';
import { smsRoutes } from './routes/sms.js';

export interface AppDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly rateLimit: {
    readonly requests: number;
    readonly windowSeconds: number;
    /** Failed API-key authentications tolerated per client address and window. */
    readonly failedAuthentications: number;
  };
  readonly sendBodyLimitBytes: number;
  /** Told of each accepted send with its charged recipients. */
  readonly onAccepted?: (charged: number) => void;
  /**
   * Nok sits behind one reverse proxy (NOK_TRUST_PROXY): `request.protocol`, `request.ip` and
   * `request.host` come from its X-Forwarded-* headers (the last entry, the one it added).
   */
  readonly trustProxy?: boolean;
  /** Every dispatcher's published status and the queue depth, for the console's carriers page. */
  readonly dispatchers: DispatchersView;
  /** The built console served at /console; default dist/console/ of the package. */
  readonly consoleDir?: string;
  /** Console sessions: idle and absolute lifetimes (default DEFAULT_SESSION_LIMITS). */
  readonly sessionLimits?: SessionLimits;
  /** Failed sign-ins tolerated per email and per address (default DEFAULT_SIGN_IN_LIMITS). */
  readonly signInLimits?: SignInLimits;
  /** The largest document of a sender-name request, each (default DEFAULT_DOCUMENT_MAX_BYTES). */
  readonly senderDocumentMaxBytes?: number;
  /** Where mail goes: SMTP, or the log when NOK_SMTP_URL is unset (mail/). */
  readonly mailer: Mailer;
  /** The base of links in mail (NOK_PUBLIC_URL); default http://127.0.0.1:8080. */
  readonly publicUrl?: string;
  /**
   * The origin console state changes must come from (that of NOK_PUBLIC_URL, when set);
   * default the request's own protocol://Host.
   */
  readonly consoleOrigin?: string;
  /** How long mailed links stay good (default 7 days and 1 hour). */
  readonly linkLifetimes?: LinkLifetimes;
  /** Password reset requests served per address and per person (DEFAULT_PASSWORD_RESET_LIMITS). */
  readonly passwordResetLimits?: PasswordResetLimits;
  /**
   * How long a rotated webhook secret still signs beside the new one
   * (NOK_WEBHOOK_SECRET_OVERLAP_HOURS; default 24 hours).
   */
  readonly webhookSecretOverlapMs?: number;
}

/** NOK_WEBHOOK_SECRET_OVERLAP_HOURS's default, for apps built without settings (tests). */
const DEFAULT_WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

/** Builds the HTTP app with every route; it never listens (main.ts and tests decide). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    ...requestIdOptions(),
    // Only the hop nearest to us, the proxy itself: entries before it are the client's say.
    trustProxy: deps.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
  });
  installPathIdFormats(app);
  installRequestId(app);
  installErrorHandler(app);
  installMethodNotAllowed(app);
  installSecurityHeaders(app);
  const limiter = new RateLimiter(deps.rateLimit.requests, deps.rateLimit.windowSeconds * 1000);
  const failures = new FailedAuthentications(
    deps.rateLimit.failedAuthentications,
    deps.rateLimit.windowSeconds * 1000,
  );
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('console', null);
  // Cookies are read by the console's access guard itself (parseCookie), not by a hook.
  await app.register(fastifyCookie, { hook: false });
  const sessionLimits = deps.sessionLimits ?? DEFAULT_SESSION_LIMITS;
  installAccessControl(app, {
    apiKey: apiKeyGuard({ store: deps.store, clock: deps.clock, limiter, failures }),
    console: consoleGuard({
      store: deps.store,
      clock: deps.clock,
      limits: sessionLimits,
      origin: deps.consoleOrigin,
    }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Nok SMS API',
        version: '2.0.0',
        description:
          "Bulk SMS: send to one number or two million, follow every recipient. Every request carries `x-api-key`. Errors are `{ error, code, requestId }`. Rate limits answer 429 with Retry-After and RateLimit-* headers; so does a client address past its failed authentications (NOK_AUTH_FAILURE_LIMIT per window), before any key it sends is checked. Every answer carries `X-Request-Id`: the request's own when it sent a well-formed one (1 to 128 letters, digits and `._:-`), a fresh uuid otherwise; error bodies repeat it as `requestId`, and every line Nok logs for the request has it.",
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
      security: [{ apiKey: [] }],
      // The events Nok posts to an account's endpoints (contract/webhooks-document.ts).
      webhooks: webhooksDocument(),
    },
    // Generated from the routes' zod schemas (contract/sms.ts); the console's routes are in
    // its own document (/console/api/openapi.json), not this one.
    transform: (route) =>
      jsonSchemaTransform(
        route.url.startsWith('/console')
          ? { ...route, schema: { ...route.schema, hide: true } }
          : route,
      ),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(withAccess('public', swaggerUi), { routePrefix: '/docs' });
  const isPublic = { hide: true };
  app.get('/openapi.json', { schema: isPublic, config: { access: 'public' } }, async () =>
    app.swagger(),
  );
  // For load balancers in front of the API; the operator endpoints have a listener of their own.
  app.get('/health', { schema: isPublic, config: { access: 'public' } }, async () => ({
    status: 'ok',
  }));

  const compactLists = new CompactListCache();
  await consoleApi(app, {
    compactLists,
    store: deps.store,
    clock: deps.clock,
    sessionLimits,
    signInLimits: deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
    senderDocumentMaxBytes: deps.senderDocumentMaxBytes ?? DEFAULT_DOCUMENT_MAX_BYTES,
    dispatchers: deps.dispatchers,
    onAccepted: deps.onAccepted,
    webhookSecretOverlapMs: deps.webhookSecretOverlapMs ?? DEFAULT_WEBHOOK_SECRET_OVERLAP_MS,
    people: {
      outbox: createOutbox(deps.mailer, deps.logger),
      links: consoleLinks(deps.publicUrl ?? 'http://127.0.0.1:8080'),
      lifetimes: deps.linkLifetimes ?? DEFAULT_LINK_LIFETIMES,
      resetLimits: deps.passwordResetLimits ?? DEFAULT_PASSWORD_RESET_LIMITS,
    },
  });
  await consoleApp(app, { dir: deps.consoleDir ?? defaultConsoleDir(), logger: app.log });

  await app.register(
    async (api) => {
      // /api/v2 validates and answers with the zod schemas of contract/sms.ts.
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      acceptEmptyJsonBodies(api);
      await api.register(smsSendRoutes, {
        store: deps.store,
        clock: deps.clock,
        bodyLimitBytes: deps.sendBodyLimitBytes,
        onAccepted: deps.onAccepted ?? (() => undefined),
      });
      await api.register(smsRoutes, { store: deps.store, clock: deps.clock, compactLists });
      await api.register(accountRoutes, { store: deps.store });
    },
    { prefix: '/api/v2' },
  );
  return app;
}

/**
 * Many HTTP clients send `Content-Type: application/json` on every POST, also on cancel, which
 * has no body. An empty body is therefore no body rather than malformed JSON. (send and
 * preview-cost read their raw body with their own parser.)
 */
function acceptEmptyJsonBodies(api: FastifyInstance): void {
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new DomainError('INVALID_JSON', 'The body is not valid JSON'), undefined);
    }
  });
}
