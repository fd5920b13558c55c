import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks/event-types.js';
import { messageSchema, recipientSchema } from './sms.js';

/*
 * The webhook events Nok posts, written once: the deliverer builds their bodies with these
 * types, and the OpenAPI document's `webhooks` section (app.ts) and the client's types are
 * generated from these schemas. Every body is `{ type, timestamp, data }` (Standard Webhooks);
 * the event's id is the `webhook-id` header, the same at every attempt.
 */

const timestamp = z.string().meta({ format: 'date-time' });

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** Each event type's `data`. */
export const webhookEventData = {
  'recipients.final': z
    .object({
      messageUuid: z.string(),
      refNo: z.string(),
      recipients: z.array(recipientSchema).meta({
        description:
          'Recipients of the message that reached a final status, up to NOK_WEBHOOK_BATCH_MAX (100) in one event.',
      }),
    })
    .meta({ id: 'RecipientsFinalData' }),
  'message.completed': messageSchema.meta({
    description: 'The message once every recipient is final, with its drSummary.',
  }),
  'message.released': messageSchema.meta({
    description: 'A scheduled message whose time came: it is now pending.',
  }),
  'message.cancelled': messageSchema.meta({ description: 'A scheduled message cancelled.' }),
  'sender.reviewed': z
    .object({
      name: z.string(),
      decision: z.enum(['approved', 'rejected', 'changes_requested']),
      note: z.string().nullable(),
    })
    .meta({ id: 'SenderReviewedData' }),
  'balance.low': z
    .object({
      balance: z.number().int(),
      threshold: z.number().int(),
    })
    .meta({ id: 'BalanceLowData' }),
  'webhook.test': z
    .object({ endpointId: z.string(), note: z.string() })
    .meta({ id: 'WebhookTestData' }),
} satisfies Record<(typeof WEBHOOK_EVENT_TYPES)[number], z.ZodType>;

export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof webhookEventData)[T]>;

/** The body of one event type: `{ type, timestamp, data }`. */
export function webhookEventSchema<T extends WebhookEventType>(type: T) {
  return z.object({
    type: z.literal(type),
    timestamp: timestamp.meta({ description: 'When the event happened.' }),
    data: webhookEventData[type],
  });
}

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'recipients.final':
    "Recipients of one message reached a final status (success, failed, expired, timeout…). Many recipients in one event: up to NOK_WEBHOOK_BATCH_MAX, sent within NOK_WEBHOOK_BATCH_WAIT_MS of the first one's change.",
  'message.completed':
    'Every recipient of a message is final; `data` is the message with its `drSummary`.',
  'message.released': 'A scheduled message was released for sending at its time.',
  'message.cancelled': 'A scheduled message was cancelled and its credits returned.',
  'sender.reviewed': "An administrator decided on a sender name's request.",
  'balance.low': "The account's balance fell under its low-balance threshold.",
  'webhook.test': 'A test event, sent from the console or `nok admin`.',
};

// ---- endpoints and deliveries, as the console and `nok admin webhook` show them ----

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(webhookEventTypeSchema).meta({ description: 'Empty: every type.' }),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string(),
  eventType: webhookEventTypeSchema,
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: timestamp.nullable(),
  lastAttemptAt: timestamp.nullable(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  response: z.string().nullable().meta({ description: 'The start of the answer.' }),
  createdAt: timestamp,
});
