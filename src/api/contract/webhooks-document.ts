import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks/event-types.js';
import { WEBHOOK_EVENT_DESCRIPTIONS, webhookEventSchema } from './webhooks.js';

/*
 * The OpenAPI 3.1 `webhooks` object of /openapi.json (app.ts): one `post` per event type, its
 * body generated from the event's zod schema in webhooks.ts. A schema there with an `id`
 * (`Message`, `RecipientsFinalData`…) is referenced as `#/components/schemas/<id>`, the
 * component fastify-type-provider-zod makes of the same registered schema for the paths: one
 * source for both.
 */

type JsonSchema = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 operation built here, as plain JSON. */
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters: {
    name: string;
    in: 'header';
    required: boolean;
    description: string;
    schema: JsonSchema;
    example: string;
  }[];
  requestBody: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string }>;
}

/**
 * The `webhooks` of @fastify/swagger's `openapi` option. Its types (openapi-types) make a 3.1
 * operation the intersection of the 3.0 and 3.1 ones, which no 3.1 schema holding
 * `{ type: 'null' }` satisfies: the plain JSON built here is given that type once, below.
 */
type WebhooksOption = NonNullable<
  Extract<NonNullable<FastifyDynamicSwaggerOptions['openapi']>, { webhooks?: unknown }>['webhooks']
>;

const COMPONENTS = '#/components/schemas/';

/** `recipients.final` → `webhook_recipientsFinal`. */
export function webhookOperationId(type: WebhookEventType): string {
  return `webhook_${type.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase())}`;
}

/**
 * The JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) of one event's body, as Nok writes it
 * (`io: 'output'`), with the registered schemas it uses as component references.
 */
export function webhookBodySchema(type: WebhookEventType): JsonSchema {
  const generated: JsonSchema = z.toJSONSchema(webhookEventSchema(type), {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  });
  // zod puts each registered schema (one with an `id`) in `$defs` under that id; the document
  // has it as a component of that name. test/api/openapi.test.ts resolves every reference.
  const { $schema: _dialect, $defs: _registered, ...body } = generated;
  return JSON.parse(JSON.stringify(body), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith('#/$defs/')
      ? COMPONENTS + value.slice('#/$defs/'.length)
      : value,
  ) as JsonSchema;
}

const HEADERS: Operation['parameters'] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      "The event's id: the same at every attempt and for every endpoint that receives the event. De-duplicate by it: delivery is at least once.",
    schema: { type: 'string', pattern: '^msg_[A-Za-z0-9_-]+$' },
    example: 'msg_2QxJ8mV0cB7kT1rYp4nL9sWd',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'Unix time, in seconds, of this attempt. Reject a request more than 5 minutes from your clock: an old request replayed.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1773454508',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      "One or more `v1,<signature>`, separated by spaces (Standard Webhooks v1). The signature is the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, the body byte for byte as received, keyed with the endpoint's secret: the base64 after `whsec_`, decoded. While a secret is being rotated there are two, one made with the new secret and one with the old, for NOK_WEBHOOK_SECRET_OVERLAP_HOURS: accept the request when any signature matches any secret you hold, and answer 400 when none does.",
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,XDBS1Q0NND7e1wfxNKlS8n6cBF1x6Aqj5ssYapwbDOQ=',
  },
];

const RESPONSES: Operation['responses'] = {
  '2XX': {
    description:
      'Received. Answer any 2xx within NOK_WEBHOOK_TIMEOUT_MS (default 15 s) and do the work afterwards; the body of the answer is ignored.',
  },
  '410': {
    description:
      'Gone: Nok disables the endpoint at once and posts nothing more to it until it is enabled again. Answer it only to mean "stop sending".',
  },
  default: {
    description:
      'Any other answer is a failed attempt, and so are no answer in time, a connection or TLS error and a redirect (never followed). A failed attempt is tried again with backoff and jitter: after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h and then every 10 h, until NOK_WEBHOOK_RETRY_WINDOW_HOURS (default 72) after the event; then that delivery is given up. A 429 or 503 with Retry-After is tried again no sooner than it says. An endpoint failing for the whole window is disabled and the account’s owners are emailed.',
  },
};

/** The document's `webhooks`: each event type Nok posts, keyed by the type. */
export function webhooksDocument(): WebhooksOption {
  const document: Record<WebhookEventType, { post: Operation }> = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [type, { post: operationOf(type) }]),
  ) as Record<WebhookEventType, { post: Operation }>;
  return document as unknown as WebhooksOption;
}

function operationOf(type: WebhookEventType): Operation {
  const description = WEBHOOK_EVENT_DESCRIPTIONS[type];
  return {
    operationId: webhookOperationId(type),
    summary: description.split(/(?<=\.) /)[0]!,
    description: `${description}\n\nNok posts \`{ type, timestamp, data }\` to each enabled endpoint of the account that wants this type, signed as \`webhook-signature\` says (docs/webhooks.md).`,
    // The request is Nok's, signed with the endpoint's secret; it carries no API key.
    security: [],
    parameters: HEADERS,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: webhookBodySchema(type) } },
    },
    responses: RESPONSES,
  };
}
