import { z } from 'zod';
import { LIMITS } from '../../../domain/limits.js';
import { MESSAGE_STATUSES, RECIPIENT_STATUSES } from '../../../domain/statuses.js';
import { endpoints } from './endpoint.js';
import { filterText, queryInteger, queryObject } from '../../contract/fields.js';
import {
  RECIPIENT_CSV_COLUMNS,
  messageListQuerySchema,
  messageStatusSchema,
  numberedPage,
  recipientSchema,
  recipientTallySchema,
  recipientStatusSchema,
} from '../../contract/sms.js';

/**
 * Messages in the console: the list with the filters of `GET /api/v2/sms`, one message with its
 * live delivery counts, its recipients by cursor, the CSV export and cancel. The same routes
 * under /admin read any account's messages. Shared with the browser: imports nothing but zod,
 * the limits of /api/v2 and the statuses, each written once in src/domain (modules that import
 * nothing).
 */

export { MESSAGE_STATUSES, RECIPIENT_STATUSES };
export { messageStatusSchema, recipientStatusSchema };
export type MessageStatus = z.infer<typeof messageStatusSchema>;
export type RecipientStatus = z.infer<typeof recipientStatusSchema>;

/** The limits of /api/v2, for the browser's forms too; all counted in characters (code points). */
export const RECIPIENT_PAGE_MAX = LIMITS.recipientPageSize.max;
export const RECIPIENT_SEARCH_MAX = LIMITS.recipientSearchChars;

/**
 * The list's filters: those of `GET /api/v2/sms`, read alike (contract/sms.ts). `from` and `to`
 * are instants, both inclusive (the browser turns the user's days into them in the user's
 * zone: the first millisecond of the first day to the last of the last).
 */
export { messageListQuerySchema };
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

/** An admin's list: the same filters, and one account (or every account). */
export const adminMessageListQuerySchema = queryObject({
  ...messageListQuerySchema.shape,
  accountId: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
});
export type AdminMessageListQuery = z.input<typeof adminMessageListQuerySchema>;

export const messageParamsSchema = z.object({ uuid: z.string().max(64) });

export const messageSchema = z.object({
  uuid: z.string(),
  refNo: z.string(),
  /** The account the message belongs to (an admin's view shows it). */
  accountId: z.number().int(),
  sender: z.string(),
  content: z.string(),
  parts: z.number().int(),
  status: messageStatusSchema,
  scheduledTime: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  recipients: recipientTallySchema,
  creditsPerPart: z.number().int(),
  cost: z.number().int(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListSchema = numberedPage(messageSchema);
export type MessageList = z.infer<typeof messageListSchema>;

export const statusCountsSchema = z.record(recipientStatusSchema, z.number().int());
export type StatusCounts = z.infer<typeof statusCountsSchema>;

/**
 * One message with its delivery progress. `counts` are the live per-status totals; `drSummary`
 * is present once the send is complete (as on /api/v2). `final`: nothing about it changes any
 * more (cancelled, or sent or failed with no recipient pending), so a page stops asking.
 */
export const messageDetailSchema = messageSchema.extend({
  counts: statusCountsSchema,
  drSummary: statusCountsSchema.optional(),
  final: z.boolean(),
});
export type MessageDetail = z.infer<typeof messageDetailSchema>;

/** A page of recipients by cursor, as `GET /api/v2/sms/{uuid}/recipients` with `after`. */
export const recipientQuerySchema = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(RECIPIENT_PAGE_MAX)
    .default(LIMITS.recipientPageSize.default),
  status: recipientStatusSchema.optional(),
  search: filterText(RECIPIENT_SEARCH_MAX).optional(),
});
export type RecipientQuery = z.input<typeof recipientQuerySchema>;

export { recipientSchema };
export type Recipient = z.infer<typeof recipientSchema>;

export const recipientPageSchema = z.object({
  data: z.array(recipientSchema),
  /** Pass as `after` for the next page. */
  nextCursor: z.number().int(),
  hasMore: z.boolean(),
});
export type RecipientPage = z.infer<typeof recipientPageSchema>;

/** The export's one filter: recipients of one status, or all of them. */
export const recipientExportQuerySchema = z.object({
  status: recipientStatusSchema.optional(),
});

export const cancelledMessageSchema = z.object({
  uuid: z.string(),
  status: z.literal('cancelled'),
  /** Credits returned to the balance (a `refund` row of the ledger). */
  refunded: z.number().int(),
  balance: z.number().int(),
});
export type CancelledMessage = z.infer<typeof cancelledMessageSchema>;

/** The export's body: CSV, downloaded by the browser itself (never held in a page). */
export const recipientCsvSchema = z
  .string()
  .describe(`text/csv: ${RECIPIENT_CSV_COLUMNS.join(',')}, one recipient a line`);

export const messageEndpoints = endpoints({
  'GET /messages': { query: messageListQuerySchema, response: messageListSchema },
  'GET /messages/:uuid': { params: messageParamsSchema, response: messageDetailSchema },
  'GET /messages/:uuid/recipients': {
    params: messageParamsSchema,
    query: recipientQuerySchema,
    response: recipientPageSchema,
  },
  'GET /messages/:uuid/recipients.csv': {
    params: messageParamsSchema,
    query: recipientExportQuerySchema,
    response: recipientCsvSchema,
    download: ['text/csv'],
  },
  'POST /messages/:uuid/cancel': { params: messageParamsSchema, response: cancelledMessageSchema },
  'GET /admin/messages': { query: adminMessageListQuerySchema, response: messageListSchema },
  'GET /admin/messages/:uuid': { params: messageParamsSchema, response: messageDetailSchema },
  'GET /admin/messages/:uuid/recipients': {
    params: messageParamsSchema,
    query: recipientQuerySchema,
    response: recipientPageSchema,
  },
  'GET /admin/messages/:uuid/recipients.csv': {
    params: messageParamsSchema,
    query: recipientExportQuerySchema,
    response: recipientCsvSchema,
    download: ['text/csv'],
  },
});
