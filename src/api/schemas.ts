import { DATE_TIME_PATTERN } from '../domain/date-time.js';
import { LIMITS } from '../domain/limits.js';
import { MSISDN_PATTERN } from '../domain/recipients/msisdn.js';
import { SENDER_NAME_PATTERN } from '../domain/senders/sender-name.js';
import { MESSAGE_STATUSES, RECIPIENT_STATUSES } from '../domain/statuses.js';
import { PATH_ID_FORMATS } from './path-ids.js';

// JSON Schemas of the routes: Fastify validates requests and serialises responses with them,
// and the OpenAPI document at /openapi.json is generated from them.

export const errorBody = {
  $id: 'Error',
  type: 'object',
  required: ['error', 'code', 'requestId'],
  properties: {
    error: { type: 'string', description: 'Human-readable message.' },
    code: { type: 'string', description: 'Machine-readable code; Nok sends one on every error.' },
    requestId: {
      type: 'string',
      description:
        'The id of the request, as in its X-Request-Id response header and on every line Nok logged for it.',
    },
  },
} as const;

const ref = (id: string) => ({ $ref: `${id}#` });

export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const descriptions: Record<number, string> = {
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
  // Every route reaches the store, so every route may answer 503 while it is unavailable.
  return Object.fromEntries(
    [...new Set([...statuses, 503])].map((s) => [
      s,
      { description: descriptions[s], ...ref('Error') },
    ]),
  );
}

export const recipientTally = {
  $id: 'RecipientTally',
  type: 'object',
  description: 'How the requested numbers were counted.',
  required: ['requested', 'unique', 'duplicates', 'valid', 'invalid', 'blocked', 'charged'],
  properties: {
    requested: {
      type: 'integer',
      description: 'Numbers given (msisdns plus contact group members).',
    },
    unique: { type: 'integer', description: 'Recipients after dropping duplicates.' },
    duplicates: {
      type: 'integer',
      description: 'Numbers dropped because they repeat an earlier one.',
    },
    valid: { type: 'integer' },
    invalid: {
      type: 'integer',
      description: 'Malformed numbers: recipients with status invalid, not charged.',
    },
    blocked: {
      type: 'integer',
      description: 'Blocklisted numbers: recipients with status blocked, not charged.',
    },
    charged: { type: 'integer', description: 'Recipients sent to and charged for.' },
  },
} as const;

const statusCounts = {
  type: 'object',
  required: [...RECIPIENT_STATUSES],
  properties: Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, { type: 'integer' }])),
} as const;

export const message = {
  $id: 'Message',
  type: 'object',
  required: [
    'uuid',
    'refNo',
    'sender',
    'content',
    'parts',
    'status',
    'createdAt',
    'updatedAt',
    'recipients',
    'cost',
  ],
  properties: {
    uuid: { type: 'string' },
    refNo: { type: 'string', description: 'Short per-account reference, increasing with time.' },
    sender: { type: 'string' },
    content: { type: 'string' },
    parts: { type: 'integer', description: 'Message parts per recipient.' },
    status: { type: 'string', enum: [...MESSAGE_STATUSES] },
    scheduledTime: {
      type: 'string',
      format: 'date-time',
      description: 'Present for scheduled messages.',
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    completedAt: { type: ['string', 'null'], format: 'date-time' },
    recipients: ref('RecipientTally'),
    creditsPerPart: { type: 'integer' },
    cost: { type: 'integer', description: 'Credits charged (held, while scheduled).' },
    drSummary: {
      ...statusCounts,
      description: 'Recipients per delivery status; present once the send is complete.',
    },
  },
} as const;

export const costEstimate = {
  type: 'object',
  required: [
    'parts',
    'characters',
    'recipients',
    'creditsPerPart',
    'cost',
    'balance',
    'sufficientCredits',
  ],
  properties: {
    dryRun: { type: 'boolean' },
    parts: { type: 'integer' },
    characters: { type: 'integer' },
    recipients: ref('RecipientTally'),
    creditsPerPart: { type: 'integer' },
    cost: { type: 'integer', description: 'parts × charged recipients × creditsPerPart' },
    balance: { type: 'integer' },
    sufficientCredits: { type: 'boolean' },
  },
} as const;

export const sendAccepted = {
  type: 'object',
  required: [
    'uuid',
    'refNo',
    'status',
    'sender',
    'parts',
    'characters',
    'createdAt',
    'recipients',
    'creditsPerPart',
    'cost',
    'balance',
  ],
  properties: {
    uuid: { type: 'string' },
    refNo: { type: 'string' },
    status: { type: 'string', enum: [...MESSAGE_STATUSES] },
    sender: { type: 'string' },
    parts: { type: 'integer' },
    characters: { type: 'integer' },
    scheduledTime: { type: 'string', format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
    recipients: ref('RecipientTally'),
    creditsPerPart: { type: 'integer' },
    cost: { type: 'integer' },
    balance: { type: 'integer', description: 'Balance after this send.' },
  },
} as const;

/** Text with no U+0000: PostgreSQL text cannot hold it, SQLite's LIKE stops at it, SMS cannot carry it. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/** Ids of stored things: positive integers a JavaScript number holds exactly. */
const id = (description: string) =>
  ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description }) as const;

const content = (maxLength: number) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength,
    // Not only whitespace, and no U+0000.
    pattern: '^\\s*[^\\s\\u0000][^\\u0000]*$',
    description: `The text, at most ${maxLength.toLocaleString('en-US')} characters (Unicode code points: an emoji is one). Not empty or only spaces; no NUL (U+0000). Either content or templateId, not both.`,
  }) as const;

const msisdns = {
  type: 'array',
  maxItems: LIMITS.numbersPerRequest,
  items: { type: 'string', description: '66XXXXXXXXX or 0XXXXXXXXX' },
  description: `Up to ${LIMITS.numbersPerRequest.toLocaleString('en-US')} numbers. Numbers are normalised to 66XXXXXXXXX and counted once each; a malformed one becomes a recipient with status invalid, not charged. Give msisdns, contactGroupId, or both (the union is sent); without a group, msisdns holds at least one valid number.`,
} as const;

const variables = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'] },
  description: 'Values for the template placeholders {{name}}; only with templateId.',
} as const;

/**
 * The rules across members, as JSON Schema keywords that validators and fuzzers read: exactly
 * one of content/templateId, at least one of msisdns/contactGroupId (msisdns alone holding a
 * valid number, or nothing could be sent), variables only with a template.
 */
const memberRules = [
  { oneOf: [{ required: ['content'] }, { required: ['templateId'] }] },
  {
    anyOf: [
      {
        required: ['msisdns'],
        properties: { msisdns: { contains: { type: 'string', pattern: MSISDN_PATTERN } } },
      },
      { required: ['contactGroupId'] },
    ],
  },
  { dependentRequired: { variables: ['templateId'] } },
] as const;

export const sendBody = {
  type: 'object',
  required: ['sender'],
  additionalProperties: false,
  properties: {
    sender: {
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.senderNameChars,
      pattern: SENDER_NAME_PATTERN,
      description: `An approved sender name: 1 to ${LIMITS.senderNameChars} letters, digits and symbols (printable ASCII), one space between words.`,
    },
    content: content(LIMITS.sendContentChars),
    msisdns,
    contactGroupId: id('An existing contact group of the account; its numbers are sent to.'),
    templateId: id('A saved template of the account, used instead of content.'),
    variables,
    scheduledTime: {
      type: 'string',
      format: 'date-time',
      pattern: DATE_TIME_PATTERN,
      description:
        'A future time, RFC 3339 with seconds and a UTC offset, e.g. 2026-12-01T09:30:00+07:00. The credits are held until then.',
    },
    dryRun: {
      type: 'boolean',
      description: 'When true: the cost estimate only; nothing is charged, stored or sent.',
    },
  },
  allOf: memberRules,
} as const;

export const previewBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    content: content(LIMITS.previewContentChars),
    msisdns,
    contactGroupId: id('An existing contact group of the account, instead of or beside msisdns.'),
    templateId: id('A saved template of the account, used instead of content.'),
    variables,
  },
  allOf: memberRules,
} as const;

export const uuidParams = {
  type: 'object',
  required: ['uuid'],
  properties: {
    uuid: {
      type: 'string',
      pattern: PATH_ID_FORMATS.uuid,
      description: 'The uuid returned by send.',
    },
  },
} as const;

export const sharedSchemas = [errorBody, recipientTally, message];
