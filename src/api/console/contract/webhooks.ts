import { z } from 'zod';
import { NO_NUL_PATTERN, filterText, queryInteger, queryObject } from '../../contract/fields.js';
import {
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEventTypeSchema,
} from '../../contract/webhooks.js';
import { endpoints } from './endpoint.js';
import { timestampSchema } from './common.js';

/*
 * The console's webhooks page (owners only, as API keys): an account's endpoints, their
 * secrets, their recent deliveries, and a test event (docs/webhooks.md, "Managing endpoints").
 * The endpoint, delivery and event-type schemas are /api/v2's (src/api/contract/webhooks.ts),
 * the ones the OpenAPI document and `nok admin webhook` use. Shared with the browser: zod, the
 * API's contract and the domain's pure list of event types only.
 *
 *   GET    /webhooks                                          → { data, eventTypes }
 *   POST   /webhooks                     {url, description?, eventTypes?} → 201 { endpoint, secret }
 *   GET    /webhooks/:endpointUid/secret                      → { secret }
 *   PATCH  /webhooks/:endpointUid        {url?, description?, eventTypes?, enabled?} → Endpoint
 *   POST   /webhooks/:endpointUid/rotate-secret               → { endpoint, secret, previousSecretUntil }
 *   DELETE /webhooks/:endpointUid                             → 204
 *   GET    /webhooks/:endpointUid/deliveries  ?limit&before   → { data }
 *   POST   /webhooks/:endpointUid/deliveries/:deliveryId/resend → 202 { deliveryId }
 *   POST   /webhooks/:endpointUid/test                        → 202 { eventId }
 *
 * An endpoint's id is `ep_…` (`:…Uid` in src/api/path-ids.ts); an unknown one, or another
 * account's, is 404 NOT_FOUND (the domain's rule for webhook endpoints).
 */

/** The domain's limits (domain/webhooks/manage-endpoints.ts), which a test keeps equal. */
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_DELIVERY_PAGE_MAX = 100;

export { webhookDeliverySchema, webhookEndpointSchema, webhookEventTypeSchema };
export const WEBHOOK_EVENT_TYPES = webhookEventTypeSchema.options;
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
export type WebhookEventTypeName = z.infer<typeof webhookEventTypeSchema>;

const urlField = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_MAX)
  .regex(new RegExp(NO_NUL_PATTERN))
  .meta({ description: 'An absolute `https://` (or `http://`) URL, without a user or password.' });
const descriptionField = filterText(WEBHOOK_DESCRIPTION_MAX, 'What the endpoint is for.');
const eventTypesField = z
  .array(webhookEventTypeSchema)
  .max(WEBHOOK_EVENT_TYPES.length)
  .meta({ description: 'The event types it receives; empty (the default): every type.' });

export const createWebhookBodySchema = z.object({
  url: urlField,
  description: descriptionField.optional(),
  eventTypes: eventTypesField.optional(),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    url: urlField.optional(),
    description: descriptionField.optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z
      .boolean()
      .optional()
      .meta({ description: 'true enables it (its pending deliveries are posted again).' }),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of url, description, eventTypes, enabled',
  });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookParamsSchema = z.object({ endpointUid: z.string().max(80) });
export const webhookDeliveryParamsSchema = webhookParamsSchema.extend({
  deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const webhookDeliveriesQuerySchema = queryObject({
  limit: queryInteger(1, WEBHOOK_DELIVERY_PAGE_MAX).default(50),
  /** Deliveries older than this one (its id): the next page. */
  before: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
});
export type WebhookDeliveriesQuery = z.input<typeof webhookDeliveriesQuerySchema>;

export const webhookEventTypeInfoSchema = z.object({
  type: webhookEventTypeSchema,
  description: z.string(),
});

export const webhookListSchema = z.object({
  data: z.array(webhookEndpointSchema),
  /** Every event type an endpoint may ask for, in order, with what it reports. */
  eventTypes: z.array(webhookEventTypeInfoSchema),
});
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The endpoint with its whole secret (`whsec_…`). */
export const createdWebhookSchema = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookSecretSchema = z.object({ secret: z.string() });

export const rotatedWebhookSchema = createdWebhookSchema.extend({
  /** Until when the old secret still signs beside the new one (null: it stopped at once). */
  previousSecretUntil: timestampSchema.nullable(),
});
export type RotatedWebhook = z.infer<typeof rotatedWebhookSchema>;

export const webhookDeliveryListSchema = z.object({ data: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const resentWebhookSchema = z.object({ deliveryId: z.number().int() });
export const testWebhookSchema = z.object({
  eventId: z.string().meta({ description: "The test event's `webhook-id`." }),
});

export const webhookEndpoints = endpoints({
  'GET /webhooks': { response: webhookListSchema },
  'POST /webhooks': { body: createWebhookBodySchema, status: 201, response: createdWebhookSchema },
  'GET /webhooks/:endpointUid/secret': {
    params: webhookParamsSchema,
    response: webhookSecretSchema,
  },
  'PATCH /webhooks/:endpointUid': {
    params: webhookParamsSchema,
    body: updateWebhookBodySchema,
    response: webhookEndpointSchema,
  },
  'POST /webhooks/:endpointUid/rotate-secret': {
    params: webhookParamsSchema,
    response: rotatedWebhookSchema,
  },
  'DELETE /webhooks/:endpointUid': {
    params: webhookParamsSchema,
    status: 204,
    response: z.undefined(),
  },
  'GET /webhooks/:endpointUid/deliveries': {
    params: webhookParamsSchema,
    query: webhookDeliveriesQuerySchema,
    response: webhookDeliveryListSchema,
  },
  'POST /webhooks/:endpointUid/deliveries/:deliveryId/resend': {
    params: webhookDeliveryParamsSchema,
    status: 202,
    response: resentWebhookSchema,
  },
  'POST /webhooks/:endpointUid/test': {
    params: webhookParamsSchema,
    status: 202,
    response: testWebhookSchema,
  },
});
