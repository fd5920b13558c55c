import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/event-types.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  type WebhookActor,
} from '../../../domain/webhooks/manage-endpoints.js';
import type {
  WebhookDeliveryRecord,
  WebhookEndpoint,
} from '../../../domain/webhooks/webhook-store.js';
import { WEBHOOK_EVENT_DESCRIPTIONS } from '../../contract/webhooks.js';
import type { WebhookDeliveryView, WebhookEndpointView } from '../contract/webhooks.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';

const owner = { access: { role: 'owner' } } as const;
const tags = ['webhooks'];

/**
 * The owner's webhook endpoints (docs/webhooks.md, "Managing endpoints"): list, add, change,
 * enable and disable, rotate or show the secret, delete, send a test event, and each endpoint's
 * recent deliveries with a resend. Owners only, as API keys: a secret signs what the account's
 * systems trust, and deliveries show the start of their answers. Another account's endpoint is
 * 404, as an unknown one (the domain's rule).
 */
export const webhookRoutes: FastifyPluginAsync<ConsoleDeps> = async (
  app,
  { store, clock, webhookSecretOverlapMs },
) => {
  consoleRoute(
    app,
    'GET /webhooks',
    {
      tags,
      summary: "The account's webhook endpoints, oldest first, and the event types",
      config: owner,
    },
    async (request) => ({
      data: (await listWebhookEndpoints(store, consoleAccountId(request))).map(presentEndpoint),
      eventTypes: WEBHOOK_EVENT_TYPES.map((type) => ({
        type,
        description: WEBHOOK_EVENT_DESCRIPTIONS[type],
      })),
    }),
  );

  consoleRoute(
    app,
    'POST /webhooks',
    {
      tags,
      summary: 'Add a webhook endpoint',
      description:
        'Answers the endpoint and its signing secret (`whsec_…`). An account has at most 10 endpoints. The URL is checked when a delivery is made: one that resolves to a private address fails unless NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS is true.',
      config: owner,
    },
    async (request) => {
      const endpoint = await createWebhookEndpoint(store, {
        accountId: consoleAccountId(request),
        url: request.body.url,
        description: request.body.description,
        eventTypes: request.body.eventTypes,
        nowMs: clock.now(),
        audit: actorOf(request).audit,
      });
      return { endpoint: presentEndpoint(endpoint), secret: endpoint.secret };
    },
  );

  consoleRoute(
    app,
    'GET /webhooks/:endpointUid/secret',
    {
      tags,
      summary: "An endpoint's signing secret",
      description: 'Shown on demand to the account’s owners; never in a list.',
      config: owner,
    },
    async (request, reply) => {
      const endpoint = await findWebhookEndpoint(
        store,
        actorOf(request),
        request.params.endpointUid,
      );
      reply.header('cache-control', 'no-store');
      return { secret: endpoint.secret };
    },
  );

  consoleRoute(
    app,
    'PATCH /webhooks/:endpointUid',
    {
      tags,
      summary: 'Change an endpoint, or enable or disable it',
      description:
        'Enabling an endpoint clears why it was disabled; its pending deliveries are posted again.',
      config: owner,
    },
    async (request) =>
      presentEndpoint(
        await updateWebhookEndpoint(
          store,
          actorOf(request),
          request.params.endpointUid,
          request.body,
          clock.now(),
        ),
      ),
  );

  consoleRoute(
    app,
    'POST /webhooks/:endpointUid/rotate-secret',
    {
      tags,
      summary: 'Give an endpoint a new secret; the old one still signs for a while',
      description:
        'Answers the new secret. Until `previousSecretUntil` (NOK_WEBHOOK_SECRET_OVERLAP_HOURS) every request carries a signature made with each secret.',
      config: owner,
    },
    async (request, reply) => {
      const nowMs = clock.now();
      const endpoint = await rotateWebhookSecret(
        store,
        actorOf(request),
        request.params.endpointUid,
        { nowMs, overlapMs: webhookSecretOverlapMs },
      );
      reply.header('cache-control', 'no-store');
      return {
        endpoint: presentEndpoint(endpoint),
        secret: endpoint.secret,
        previousSecretUntil:
          endpoint.previousSecretUntil === null ? null : iso(endpoint.previousSecretUntil),
      };
    },
  );

  consoleRoute(
    app,
    'DELETE /webhooks/:endpointUid',
    {
      tags,
      summary: 'Delete an endpoint and its deliveries',
      config: owner,
    },
    async (request) => {
      await deleteWebhookEndpoint(store, actorOf(request), request.params.endpointUid, clock.now());
      return undefined;
    },
  );

  consoleRoute(
    app,
    'GET /webhooks/:endpointUid/deliveries',
    {
      tags,
      summary: "An endpoint's recent deliveries, newest first",
      description: 'The next page: `before`, the id of the last delivery of this one.',
      config: owner,
    },
    async (request) => ({
      data: (
        await listWebhookDeliveries(store, actorOf(request), request.params.endpointUid, {
          limit: request.query.limit,
          ...(request.query.before !== undefined && { before: request.query.before }),
        })
      ).map(presentDelivery),
    }),
  );

  consoleRoute(
    app,
    'POST /webhooks/:endpointUid/deliveries/:deliveryId/resend',
    {
      tags,
      summary: 'Post a delivery again, at once, whatever became of it',
      description: "A delivery of another endpoint is 404. The delivery's event id stays the same.",
      config: owner,
    },
    async (request) => {
      await resendWebhookDelivery(
        store,
        actorOf(request),
        request.params.endpointUid,
        request.params.deliveryId,
        clock.now(),
      );
      return { deliveryId: request.params.deliveryId };
    },
  );

  consoleRoute(
    app,
    'POST /webhooks/:endpointUid/test',
    {
      tags,
      summary: 'Send a `webhook.test` event to this endpoint alone',
      description: 'Its delivery shows among the endpoint’s deliveries, like any other.',
      config: owner,
    },
    async (request) => ({
      eventId: await sendTestWebhook(
        store,
        actorOf(request),
        request.params.endpointUid,
        clock.now(),
      ),
    }),
  );
};

/** The owner acting on their own account's endpoints, with the audit's actor. */
function actorOf(request: FastifyRequest): WebhookActor {
  const { actorUserId, ip } = auditActor(request);
  return { accountId: consoleAccountId(request), audit: { actorUserId, ip } };
}

function presentEndpoint(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.uuid,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
  };
}

function presentDelivery(delivery: WebhookDeliveryRecord): WebhookDeliveryView {
  return {
    id: delivery.id,
    eventId: delivery.eventUid,
    eventType: delivery.eventType,
    state: delivery.state,
    attempts: delivery.attempts,
    // Only a pending delivery has a next attempt; the column keeps its last value otherwise.
    nextAttemptAt: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
    lastAttemptAt: delivery.lastAttemptAt === null ? null : iso(delivery.lastAttemptAt),
    statusCode: delivery.statusCode,
    latencyMs: delivery.latencyMs,
    error: delivery.error,
    response: delivery.response,
    createdAt: iso(delivery.createdAt),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
