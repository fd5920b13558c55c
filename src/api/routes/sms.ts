import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../../domain/clock.js';
import { cancelMessage } from '../../domain/messages/cancel-message.js';
import { getMessage } from '../../domain/messages/get-message.js';
import type { Store } from '../../domain/store.js';
import type { CompactListCache } from '../../domain/recipients/compact-list-cache.js';
import { listRecipients } from '../../domain/recipients/list-recipients.js';
import {
  cancelledSchema,
  errorResponses,
  messageListQuerySchema,
  messageListSchema,
  messageSchema,
  recipientExportQuerySchema,
  recipientPageSchema,
  recipientQuerySchema,
} from '../contract/sms.js';
import { PATH_ID_FORMATS } from '../path-ids.js';
import { sendRecipientExport } from '../recipient-export.js';
import { messagePage } from '../message-list.js';
import {
  presentMessage,
  presentMessageDetails,
  presentRecipient,
  presentSummary,
} from '../presenters.js';

/** A message's uuid, in the one format a route's path takes (path-ids.ts). */
const uuidParamsSchema = z.object({
  uuid: z
    .string()
    .regex(new RegExp(PATH_ID_FORMATS.uuid))
    .meta({ description: 'The uuid returned by send.' }),
});

export interface SmsRouteDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly compactLists: CompactListCache;
}

export async function smsRoutes(api: FastifyInstance, deps: SmsRouteDeps): Promise<void> {
  const app = api.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sms',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: "List the account's messages, most recent first",
        tags: ['sms'],
        querystring: messageListQuerySchema,
        response: {
          200: messageListSchema,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const page = await messagePage(deps.store, request.caller.accountId, request.query);
      const { items, ...paging } = page;
      return { ...paging, data: items.map((m) => presentMessage(m)) };
    },
  );

  app.get(
    '/sms/:uuid',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'One message, with drSummary once the send is complete',
        tags: ['sms'],
        params: uuidParamsSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { uuid } = request.params;
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
        params: uuidParamsSchema,
        response: {
          200: cancelledSchema,
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      const { uuid } = request.params;
      const message = await cancelMessage(
        deps.store,
        request.caller.accountId,
        uuid,
        deps.clock.now(),
      );
      return { uuid: message.uuid, status: 'cancelled' as const, refunded: message.cost };
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
        params: uuidParamsSchema,
        querystring: recipientQuerySchema,
        response: {
          200: recipientPageSchema,
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const page = await listRecipients(
        deps.store,
        deps.compactLists,
        request.caller.accountId,
        request.params.uuid,
        request.query,
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

  app.get(
    '/sms/:uuid/recipients/export',
    {
      config: { access: { scope: 'sms:read' } },
      schema: {
        summary: 'Every recipient of the message (or of one status), streamed as CSV or NDJSON',
        description:
          'The whole of what the recipients pages give, in one response streamed as it is read, for messages of any size: `format=csv` (the default) answers `text/csv` with a header line and one recipient a line (seq, msisdn, status, updatedAt; CRLF, a number that a spreadsheet would run as a formula prefixed with an apostrophe), `format=ndjson` answers `application/x-ndjson`, one recipient a line as the items of a recipients page. In `seq` order; `status` keeps one delivery status. The same key rules as the recipients pages. An error found before the first byte answers as any other (`{ error, code }`); one after it, such as the store failing, ends the response early, so a complete export is one whose last line ends with its line break and whose rows number what the message counts.',
        tags: ['sms'],
        params: uuidParamsSchema,
        querystring: recipientExportQuerySchema,
        response: {
          200: {
            description: 'The recipients, streamed',
            content: {
              'text/csv': { schema: z.string() },
              'application/x-ndjson': { schema: z.string() },
            },
          },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) =>
      sendRecipientExport(
        deps.store,
        deps.compactLists,
        request.caller.accountId,
        request.params.uuid,
        request.query,
        reply,
      ),
  );
}
