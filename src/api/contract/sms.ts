import { z } from 'zod';
import { LIMITS } from '../../domain/limits.js';
import type { NumberList } from '../../domain/recipients/number-list.js';
import type { TemplateVariables } from '../../domain/messages/render-template.js';
import type { PreviewRequest, SendRequest } from '../../domain/messages/send-request.js';
import { MESSAGE_STATUSES, RECIPIENT_STATUSES, SENDER_STATUSES } from '../../domain/statuses.js';
import {
  contentSchema,
  errorBodySchema,
  filterText,
  idSchema,
  MEMBER_RULES,
  messageRules,
  messageText,
  msisdnText,
  queryInteger,
  queryObject,
  scheduledTimeSchema,
  senderNameSchema,
  variablesSchema,
  windowBound,
} from './fields.js';

/*
 * /api/v2, its requests and answers, written once: the routes validate and serialise with these
 * schemas, the OpenAPI document at /openapi.json is generated from them, and the send body's
 * byte scanner hands the use case what `sendRequestSchema` parses. A schema with an `id` is a
 * component of the document, referenced where it is used.
 */

const timestamp = z.string().meta({ format: 'date-time' });

/** The error answer, a component of the document. */
const errorBody = errorBodySchema.meta({ id: 'Error' });

export const recipientTallySchema = z.object({
  requested: z.number().int().meta({
    description: 'Numbers given (msisdns plus contact group members).',
  }),
  unique: z.number().int().meta({ description: 'Recipients after dropping duplicates.' }),
  duplicates: z.number().int().meta({
    description: 'Numbers dropped because they repeat an earlier one.',
  }),
  valid: z.number().int(),
  invalid: z.number().int().meta({
    description: 'Malformed numbers: recipients with status invalid, not charged.',
  }),
  blocked: z.number().int().meta({
    description: 'Blocklisted numbers: recipients with status blocked, not charged.',
  }),
  charged: z.number().int().meta({ description: 'Recipients sent to and charged for.' }),
});
export type RecipientTally = z.infer<typeof recipientTallySchema>;

const recipientTally = recipientTallySchema.meta({
  id: 'RecipientTally',
  description: 'How the requested numbers were counted.',
});

export const messageStatusSchema = z.enum(MESSAGE_STATUSES);
export const recipientStatusSchema = z.enum(RECIPIENT_STATUSES);

/** Recipients per delivery status, every status present. */
const statusCounts = z.object(
  Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, z.number().int()])) as Record<
    (typeof RECIPIENT_STATUSES)[number],
    z.ZodNumber
  >,
);

export const messageSchema = z
  .object({
    uuid: z.string(),
    refNo: z.string().meta({ description: 'Short per-account reference, increasing with time.' }),
    sender: z.string(),
    content: z.string(),
    parts: z.number().int().meta({ description: 'Message parts per recipient.' }),
    status: messageStatusSchema,
    scheduledTime: timestamp.meta({ description: 'Present for scheduled messages.' }).optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    completedAt: timestamp.nullable().optional(),
    recipients: recipientTally,
    creditsPerPart: z.number().int().optional(),
    cost: z.number().int().meta({ description: 'Credits charged (held, while scheduled).' }),
    drSummary: statusCounts
      .meta({ description: 'Recipients per delivery status; present once the send is complete.' })
      .optional(),
  })
  .meta({ id: 'Message' });

export const costEstimateSchema = z.object({
  dryRun: z.boolean().optional(),
  parts: z.number().int(),
  characters: z.number().int(),
  recipients: recipientTally,
  creditsPerPart: z.number().int(),
  cost: z.number().int().meta({ description: 'parts × charged recipients × creditsPerPart' }),
  balance: z.number().int(),
  sufficientCredits: z.boolean(),
});

export const sendAcceptedSchema = z.object({
  uuid: z.string(),
  refNo: z.string(),
  status: messageStatusSchema,
  sender: z.string(),
  parts: z.number().int(),
  characters: z.number().int(),
  scheduledTime: timestamp.optional(),
  createdAt: timestamp,
  recipients: recipientTally,
  creditsPerPart: z.number().int(),
  cost: z.number().int(),
  balance: z.number().int().meta({ description: 'Balance after this send.' }),
});

// ---- send and preview-cost ----

const msisdnsMeta = {
  description: `Up to ${LIMITS.numbersPerRequest.toLocaleString('en-US')} numbers. Numbers are normalised to 66XXXXXXXXX and counted once each; a malformed one becomes a recipient with status invalid, not charged. Give msisdns, contactGroupId, or both (the union is sent); without a group, msisdns holds at least one valid number.`,
};

/** The numbers of a body as published: text, at most the limit. */
const publishedMsisdns = z.array(msisdnText).max(LIMITS.numbersPerRequest).meta(msisdnsMeta);
/** The numbers as the byte scanner reads them: already counted, normalised and deduplicated. */
const scannedMsisdns = z.custom<NumberList>().meta(msisdnsMeta);

export function previewShape<N extends z.ZodType>(msisdns: N) {
  return {
    content: contentSchema(LIMITS.previewContentChars).optional(),
    msisdns: msisdns.optional(),
    contactGroupId: idSchema(
      'An existing contact group of the account, instead of or beside msisdns.',
    ).optional(),
    templateId: idSchema('A saved template of the account, used instead of content.').optional(),
    variables: variablesSchema.optional(),
  };
}

export function sendShape<N extends z.ZodType>(msisdns: N) {
  return {
    sender: senderNameSchema,
    ...previewShape(msisdns),
    content: contentSchema(LIMITS.sendContentChars).optional(),
    scheduledTime: scheduledTimeSchema.optional(),
    dryRun: z
      .boolean()
      .meta({
        description: 'When true: the cost estimate only; nothing is charged, stored or sent.',
      })
      .optional(),
  };
}

/** POST /api/v2/sms/send, as published. */
export const sendBodySchema = z
  .strictObject(sendShape(publishedMsisdns))
  .superRefine(messageRules)
  .meta({ allOf: MEMBER_RULES });

/** POST /api/v2/sms/preview-cost, as published. */
export const previewBodySchema = z
  .strictObject(previewShape(publishedMsisdns))
  .superRefine(messageRules)
  .meta({ allOf: MEMBER_RULES });

/** What a preview body holds once parsed, its numbers read into a list. */
export interface PreviewMembers {
  readonly content?: string;
  readonly templateId?: number;
  readonly variables?: TemplateVariables;
  readonly msisdns?: NumberList;
  readonly contactGroupId?: number;
}

/** What a send body holds once parsed, its numbers read into a list. */
export interface SendMembers extends PreviewMembers {
  readonly sender: string;
  readonly scheduledTime?: number;
  readonly dryRun?: boolean;
}

/** A parsed preview body as the use case's command. */
export function toPreviewRequest(body: PreviewMembers): PreviewRequest {
  return {
    text: messageText(body),
    ...(body.msisdns !== undefined && { numbers: body.msisdns }),
    ...(body.contactGroupId !== undefined && { contactGroupId: body.contactGroupId }),
  };
}

/** A parsed send body as the use case's command. */
export function toSendRequest(body: SendMembers): SendRequest {
  return {
    ...toPreviewRequest(body),
    sender: body.sender,
    scheduledAt: body.scheduledTime ?? null,
    dryRun: body.dryRun ?? false,
  };
}

/** The send body the scanner read, parsed into the use case's command. */
export const sendRequestSchema = z
  .strictObject(sendShape(scannedMsisdns))
  .superRefine(messageRules)
  .transform(toSendRequest);

/** The preview body the scanner read, parsed into the use case's command. */
export const previewRequestSchema = z
  .strictObject(previewShape(scannedMsisdns))
  .superRefine(messageRules)
  .transform(toPreviewRequest);

/** 1 to 255 printable ASCII characters; the same pattern is published in the document. */
export const IDEMPOTENCY_KEY_PATTERN = `^[\\x21-\\x7e]{1,${LIMITS.idempotencyKeyChars}}$`;

const IDEMPOTENCY_KEY_RULE = `Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyChars} printable ASCII characters`;

export const sendHeadersSchema = z.object({
  'idempotency-key': z
    .string({ error: () => IDEMPOTENCY_KEY_RULE })
    .regex(new RegExp(IDEMPOTENCY_KEY_PATTERN), IDEMPOTENCY_KEY_RULE)
    .meta({
      minLength: 1,
      maxLength: LIMITS.idempotencyKeyChars,
      description: `Optional. 1 to ${LIMITS.idempotencyKeyChars} printable ASCII characters. A retry with the same key and body replays the first answer and charges nothing more; the same key with another body answers 422.`,
    })
    .optional(),
});

// ---- the message list, one message, its recipients ----

/**
 * GET /api/v2/sms's query, the console's too: `from` and `to` are read into instants (`to`
 * inclusive), and `from` may not come after `to`.
 */
export const messageListQuerySchema = queryObject({
  page: queryInteger(1, LIMITS.maxMessagePage).default(1),
  limit: queryInteger(1, LIMITS.messagePageSize.max).default(LIMITS.messagePageSize.default),
  status: messageStatusSchema.optional(),
  sender: filterText(LIMITS.senderNameChars).optional(),
  from: windowBound('from').optional(),
  to: windowBound('to').optional(),
  search: filterText(
    LIMITS.messageSearchChars,
    'Substring of refNo or content, case-insensitive',
  ).optional(),
});
export type MessageListFilters = z.output<typeof messageListQuerySchema>;

/** A page of a list by page number: its items, where it is, and how many there are. */
export const numberedPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });

export const messageListSchema = numberedPage(messageSchema);

export const recipientQuerySchema = queryObject({
  limit: queryInteger(1, LIMITS.recipientPageSize.max).default(LIMITS.recipientPageSize.default),
  // Bounded so that a cursor, plus a page, stays an integer both engines accept.
  after: queryInteger(0, Number.MAX_SAFE_INTEGER).optional(),
  status: recipientStatusSchema.optional(),
  search: filterText(LIMITS.recipientSearchChars, 'Substring of the number').optional(),
});

/** How an export gives the recipients (`GET /sms/{uuid}/recipients/export`). */
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The CSV export's columns, in order: a recipients page's item's fields. */
export const RECIPIENT_CSV_COLUMNS = ['seq', 'msisdn', 'status', 'updatedAt'] as const;

export const recipientExportQuerySchema = queryObject({
  format: z.enum(EXPORT_FORMATS).default('csv').meta({
    description:
      '`csv`: a header line, then one recipient a line (seq, msisdn, status, updatedAt; CRLF). `ndjson`: one recipient a line, as the items of a recipients page.',
  }),
  status: recipientStatusSchema.optional(),
});

export const recipientSchema = z.object({
  seq: z.number().int().meta({ description: 'Position in the message; the cursor of `after`.' }),
  msisdn: z.string(),
  status: recipientStatusSchema,
  updatedAt: timestamp.nullable(),
});

export const recipientPageSchema = z.object({
  data: z.array(recipientSchema),
  summary: z
    .array(z.object({ status: recipientStatusSchema, count: z.number().int() }))
    .meta({ description: 'Recipients per delivery status, every status listed.' }),
  total: z.number().int().optional(),
  nextCursor: z.number().int().optional(),
  hasMore: z.boolean().optional(),
});

export const cancelledSchema = z.object({
  uuid: z.string(),
  status: z.literal('cancelled'),
  refunded: z.number().int().meta({ description: 'Credits returned to the balance.' }),
});

// ---- the account ----

export const balanceSchema = z.object({
  balance: z.number().int().meta({ description: 'Credits available.' }),
  creditsPerPart: z
    .number()
    .int()
    .meta({ description: 'Credits one message part costs one recipient.' }),
});

export const sendersSchema = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      status: z.enum(SENDER_STATUSES),
      shared: z.boolean().meta({ description: 'True when another account owns it and shares it.' }),
      createdAt: timestamp,
    }),
  ),
});

// ---- error answers ----

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or invalid number',
  401: 'Missing or invalid API key',
  402: 'Insufficient credits (INSUFFICIENT_CREDITS)',
  403: 'Scope insufficient, the resource belongs to another account, or the account is suspended (ACCOUNT_SUSPENDED)',
  404: 'Resource not found',
  409: 'Conflict with the resource state',
  413: 'Request body too large',
  415: 'Content-Type is not application/json',
  422: 'Idempotency-Key reused with a different request',
  429: 'Rate limit exceeded; see Retry-After',
  503: 'The store is down or full (STORE_UNAVAILABLE); see Retry-After',
};

/** The error answers of a route, each `{ error, code }`, and 503: every route reaches the store. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    [...new Set([...statuses, 503])].map((status) => [
      status,
      {
        description: ERROR_DESCRIPTIONS[status],
        content: { 'application/json': { schema: errorBody } },
      },
    ]),
  );
}
