import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import {
  DATE_PATTERN,
  DATE_TIME_PATTERN,
  parseDate,
  parseDateTime,
} from '../../domain/date-time.js';
import { invalidParameter } from '../../domain/errors.js';
import { cancelMessage } from '../../domain/messages/cancel-message.js';
import { getMessage } from '../../domain/messages/get-message.js';
import { LIMITS } from '../../domain/limits.js';
import { listMessages } from '../../domain/messages/list-messages.js';
import type { Store } from '../../domain/store.js';
import type { CompactListCache } from '../../domain/recipients/compact-list-cache.js';
import { listRecipients } from '../../domain/recipients/list-recipients.js';
import {
  MESSAGE_STATUSES,
  RECIPIENT_STATUSES,
  type MessageStatus,
  type RecipientStatus,
} from '../../domain/statuses.js';
import {
  presentMessage,
  presentMessageDetails,
  presentRecipient,
  presentSummary,
} from '../presenters.js';
import { errorResponses, NO_NUL_PATTERN, uuidParams } from '../schemas.js';

export interface SmsRouteDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly compactLists: CompactListCache;
}

const summarySchema = {
  type: 'array',
  description: 'Recipients per delivery status, every status listed.',
  items: {
    type: 'object',
    required: ['status', 'count'],
    properties: {
      status: { type: 'string', enum: [...RECIPIENT_STATUSES] },
      count: { type: 'integer' },
    },
  },
} as const;

const dateOrDateTime = {
  type: 'string',
  anyOf: [
    { format: 'date', pattern: DATE_PATTERN },
    { format: 'date-time', pattern: DATE_TIME_PATTERN },
  ],
} as const;

const recipientSchema = {
  type: 'object',
  required: ['seq', 'msisdn', 'status', 'updatedAt'],
  properties: {
    seq: { type: 'integer', description: 'Position in the message; the cursor of `after`.' },
    msisdn: { type: 'string' },
    status: { type: 'string', enum: [...RECIPIENT_STATUSES] },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export async function smsRoutes(app: FastifyInstance, deps: SmsRouteDeps): Promise<void> {
  app.get(
    '/sms',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: "List the account's messages, most recent first",
        tags: ['sms'],
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, maximum: LIMITS.maxMessagePage, default: 1 },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: LIMITS.messagePageSize.max,
              default: LIMITS.messagePageSize.default,
            },
            status: { type: 'string', enum: [...MESSAGE_STATUSES] },
            sender: { type: 'string', maxLength: LIMITS.senderNameChars, pattern: NO_NUL_PATTERN },
            from: {
              ...dateOrDateTime,
              description:
                'createdAt ≥ from. A date (2026-11-01: from its first millisecond, UTC) or a date-time with seconds and an offset (2026-11-01T09:30:00+07:00).',
            },
            to: {
              ...dateOrDateTime,
              description:
                'createdAt ≤ to. A date (2026-11-01: to its last millisecond, UTC) or a date-time with seconds and an offset.',
            },
            search: {
              type: 'string',
              maxLength: LIMITS.messageSearchChars,
              pattern: NO_NUL_PATTERN,
              description: 'Substring of refNo or content, case-insensitive',
            },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['data', 'page', 'limit', 'total', 'totalPages'],
            properties: {
              data: { type: 'array', items: { $ref: 'Message#' } },
              page: { type: 'integer' },
              limit: { type: 'integer' },
              total: { type: 'integer' },
              totalPages: { type: 'integer' },
            },
          },
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const q = request.query as {
        page: number;
        limit: number;
        status?: MessageStatus;
        sender?: string;
        from?: string;
        to?: string;
        search?: string;
      };
      const fromMs = q.from === undefined ? undefined : parseWindowBound(q.from, 'from', false);
      const toMs = q.to === undefined ? undefined : parseWindowBound(q.to, 'to', true);
      if (fromMs !== undefined && toMs !== undefined && fromMs > toMs)
        throw invalidParameter('from must not be after to');
      const page = await listMessages(deps.store, request.caller.accountId, {
        status: q.status,
        sender: q.sender,
        fromMs,
        toMs,
        search: q.search || undefined,
        offset: (q.page - 1) * q.limit,
        limit: q.limit,
      });
      return {
        data: page.items.map((m) => presentMessage(m)),
        page: q.page,
        limit: q.limit,
        total: page.total,
        totalPages: Math.ceil(page.total / q.limit),
      };
    },
  );

  app.get(
    '/sms/:uuid',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'One message, with drSummary once the send is complete',
        tags: ['sms'],
        params: uuidParams,
        response: { 200: { $ref: 'Message#' }, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { uuid } = request.params as { uuid: string };
      return presentMessageDetails(await getMessage(deps.store, request.caller.accountId, uuid));
    },
  );

  app.post(
    '/sms/:uuid/cancel',
    {
      // Cancelling moves credits: a read-only key may not.
      config: { access: { scope: 'sms:send' } },
      schema: {
        summary: 'Cancel a scheduled message that has not started; held credits are refunded',
        description:
          'Requires a key with scope sms:send or *. NOT_SCHEDULED answers 400; ALREADY_CANCELLED and ALREADY_PROCESSING answer 409.',
        tags: ['sms'],
        params: uuidParams,
        response: {
          200: {
            type: 'object',
            required: ['uuid', 'status', 'refunded'],
            properties: {
              uuid: { type: 'string' },
              status: { type: 'string', enum: ['cancelled'] },
              refunded: { type: 'integer', description: 'Credits returned to the balance.' },
            },
          },
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      const { uuid } = request.params as { uuid: string };
      const message = await cancelMessage(
        deps.store,
        request.caller.accountId,
        uuid,
        deps.clock.now(),
      );
      return { uuid: message.uuid, status: 'cancelled', refunded: message.cost };
    },
  );

  app.get(
    '/sms/:uuid/recipients',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'Per-recipient delivery status, with cursor paging',
        description:
          'Without `after`: the first page and `total` (recipients matching the filters). With `after` (0 for the first page, then the previous `nextCursor`): `nextCursor` and `hasMore` instead of `total`. `summary` always counts every status over the whole message. A cancelled message was never sent: its recipients that were waiting read as `failed`, never as `pending`, in the items, the `status` filter and `summary` alike.',
        tags: ['sms'],
        params: uuidParams,
        querystring: {
          type: 'object',
          properties: {
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: LIMITS.recipientPageSize.max,
              default: LIMITS.recipientPageSize.default,
            },
            // Bounded so that a cursor, plus a page, stays an integer both engines accept.
            after: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
            status: { type: 'string', enum: [...RECIPIENT_STATUSES] },
            search: {
              type: 'string',
              maxLength: LIMITS.recipientSearchChars,
              pattern: NO_NUL_PATTERN,
              description: 'Substring of the number',
            },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['data', 'summary'],
            properties: {
              data: { type: 'array', items: recipientSchema },
              summary: summarySchema,
              total: { type: 'integer' },
              nextCursor: { type: 'integer' },
              hasMore: { type: 'boolean' },
            },
          },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const { uuid } = request.params as { uuid: string };
      const q = request.query as {
        limit: number;
        after?: number;
        status?: RecipientStatus;
        search?: string;
      };
      const page = await listRecipients(
        deps.store,
        deps.compactLists,
        request.caller.accountId,
        uuid,
        q,
      );
      return {
        data: page.items.map(presentRecipient),
        summary: presentSummary(page.summary),
        ...(page.total !== undefined
          ? { total: page.total }
          : { nextCursor: page.nextCursor, hasMore: page.hasMore }),
      };
    },
  );
}

/** A date alone covers its whole UTC day: `from` its first, `to` its last millisecond. */
function parseWindowBound(value: string, name: string, endOfDay: boolean): number {
  const day = parseDate(value);
  const ms = day === null ? parseDateTime(value) : day + (endOfDay ? 86_399_999 : 0);
  if (ms === null) {
    throw invalidParameter(
      `${name} must be an ISO 8601 date (2026-11-01) or date-time with seconds and an offset (2026-11-01T09:30:00+07:00)`,
    );
  }
  return ms;
}
