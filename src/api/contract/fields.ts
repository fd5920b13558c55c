import { z } from 'zod';
import {
  DATE_PATTERN,
  DATE_TIME_PATTERN,
  parseDate,
  parseDateTime,
} from '../../domain/date-time.js';
import { DomainError, ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import { countCharacters, LIMITS } from '../../domain/limits.js';
import { contentProblem } from '../../domain/messages/message-text.js';
import type { TemplateVariables } from '../../domain/messages/render-template.js';
import type { MessageText } from '../../domain/messages/send-request.js';
import { MSISDN_PATTERN } from '../../domain/recipients/msisdn.js';
import { SENDER_NAME_PATTERN, senderNameProblem } from '../../domain/senders/sender-name.js';

/*
 * The field rules of the request shapes, each written once, for /api/v2 (contract/sms.ts) and
 * the console (console/contract/) alike. Each schema is both what the server enforces (zod) and
 * what it publishes: the JSON Schema keywords a rule stands for in the OpenAPI documents are
 * given beside it (`meta`), where zod's own would count differently (code points, not UTF-16
 * units). Imports nothing but zod and pure modules of the domain: the browser bundles it too.
 */

/** Every error answer of both APIs: `{ error, code, requestId }`. */
export const errorBodySchema = z.object({
  error: z.string().meta({ description: 'Human-readable message.' }),
  code: z
    .enum(ERROR_CODES)
    .meta({ description: 'Machine-readable code; Nok sends one on every error.' }),
  requestId: z.string().meta({
    description:
      'The id of the request, as in its X-Request-Id response header and on every line Nok logged for it.',
  }),
});

/**
 * The code a refused field answers with, when it is not INVALID_PARAMETER: carried in the
 * issue's `params` (see `issueCode`).
 */
const withCode = (code: ErrorCode) => ({ params: { code } });

/** Text with no U+0000: PostgreSQL text cannot hold it, SQLite's LIKE stops at it, SMS cannot carry it. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/** A filter's text: at most `max` characters (code points), no NUL. */
export const filterText = (max: number, description?: string) =>
  z
    .string()
    .check((ctx) => {
      if (countCharacters(ctx.value) > max) {
        ctx.issues.push({
          code: 'too_big',
          origin: 'string',
          maximum: max,
          inclusive: true,
          input: ctx.value,
          message: `must have at most ${max} characters`,
        });
      } else if (ctx.value.includes('\u0000')) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must not contain NUL' });
      }
    })
    .meta({ maxLength: max, pattern: NO_NUL_PATTERN, ...(description && { description }) });

/** Ids of stored things: positive integers a JavaScript number holds exactly. */
export const idSchema = (description: string) =>
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ description });

/** A query's integer: within [min, max]. Given as text, it is read by `queryObject`. */
export const queryInteger = (min: number, max: number) => z.number().int().min(min).max(max);

/** The number a query's text stands for: digits only (no blank, exponent or hexadecimal). */
const INTEGER_TEXT = /^-?\d+$/;

/**
 * A query string's object: the members whose schema is a number are read from their text when
 * it is an integer's (and refused as it stands otherwise); the rest are the text itself.
 */
export function queryObject<S extends z.ZodRawShape>(shape: S) {
  const numeric = new Set(
    Object.entries(shape)
      .filter(([, schema]) => isNumber(schema as z.ZodType))
      .map(([name]) => name),
  );
  const object = z.object(shape);
  const read = z.preprocess((query) => {
    if (query === null || typeof query !== 'object') return query;
    return Object.fromEntries(
      Object.entries(query).map(([name, value]) => [
        name,
        numeric.has(name) && typeof value === 'string' && INTEGER_TEXT.test(value)
          ? Number(value)
          : value,
      ]),
    );
  }, object);
  // The members, as the browser checks a form's fields with them one by one.
  return Object.assign(read, { shape: object.shape });
}

function isNumber(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  if (def.type === 'number') return true;
  return def.innerType !== undefined && isNumber(def.innerType);
}

/** A sender name: 1 to 11 printable ASCII characters, one space between words. */
export const senderNameSchema = z
  .string()
  .refine((name) => senderNameProblem(name) === null, {
    error: (issue) => senderNameProblem(issue.input as string) ?? 'not a sender name',
  })
  .meta({
    minLength: 1,
    maxLength: LIMITS.senderNameChars,
    pattern: SENDER_NAME_PATTERN,
    description: `An approved sender name: 1 to ${LIMITS.senderNameChars} letters, digits and symbols (printable ASCII), one space between words.`,
  });

/** Message text of at most `max` characters: not empty or only spaces, no NUL. */
export const contentSchema = (max: number) =>
  z
    .string()
    .check((ctx) => {
      const problem = contentProblem(ctx.value, max);
      if (problem) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: problem.message,
          ...withCode(problem.code),
        });
      }
    })
    .meta({
      minLength: 1,
      maxLength: max,
      // Not only whitespace, and no U+0000.
      pattern: '^\\s*[^\\s\\u0000][^\\u0000]*$',
      description: `The text, at most ${max.toLocaleString('en-US')} characters (Unicode code points: an emoji is one). Not empty or only spaces; no NUL (U+0000). Either content or templateId, not both.`,
    });

/** Values for a template's placeholders. */
export const variablesSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .meta({ description: 'Values for the template placeholders {{name}}; only with templateId.' });

/**
 * A future time (the future is the use case's to judge): RFC 3339 with seconds and an offset;
 * read into its instant. Every refusal of it answers INVALID_SCHEDULED_TIME.
 */
export const scheduledTimeSchema = z
  .string({
    error: () => 'scheduledTime must be an ISO 8601 string with a UTC offset',
  })
  .transform((value, ctx) => {
    const instant = parseDateTime(value);
    if (instant === null) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `scheduledTime ${JSON.stringify(value)} is not a real date-time like 2026-12-01T09:30:00+07:00 (RFC 3339, with seconds and a UTC offset)`,
        ...withCode('INVALID_SCHEDULED_TIME'),
      });
      return z.NEVER;
    }
    return instant;
  })
  .meta({
    format: 'date-time',
    pattern: DATE_TIME_PATTERN,
    description:
      'A future time, RFC 3339 with seconds and a UTC offset, e.g. 2026-12-01T09:30:00+07:00. The credits are held until then.',
  });

/** The fields whose every refusal has a code of its own. */
const FIELD_CODES: Readonly<Record<string, ErrorCode>> = {
  scheduledTime: 'INVALID_SCHEDULED_TIME',
};

/** The code a refusal answers with: the issue's own, its field's, else INVALID_PARAMETER. */
export function issueCode(issue: z.core.$ZodIssue): ErrorCode {
  const own = (issue as { params?: { code?: ErrorCode } }).params?.code;
  if (own) return own;
  const field = issue.path[0];
  return (typeof field === 'string' && FIELD_CODES[field]) || 'INVALID_PARAMETER';
}

/**
 * The code of a refusal by a route's validator: its first issue, as fastify-type-provider-zod
 * hands it over (the issue's own members under `params`, its path as `instancePath`).
 */
export function validationCode(
  entry: { readonly instancePath?: string; readonly params?: unknown } | undefined,
): ErrorCode {
  const path = (entry?.instancePath ?? '').split('/').filter((segment) => segment !== '');
  const params = entry?.params as { readonly params?: Record<string, unknown> } | undefined;
  return issueCode({ code: 'custom', message: '', input: undefined, path, params: params?.params });
}

/** An issue as the one sentence of an error body: which field, and what is wrong with it. */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' && issueCode(issue) !== 'INVALID_PARAMETER') return issue.message;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * One end of a window of time, as the message list reads it: a date (a whole UTC day: `from`
 * its first millisecond, `to` its last) or a date-time with seconds and an offset. Read into
 * the instant it names.
 */
export const windowBound = (end: 'from' | 'to') =>
  z
    .string()
    .transform((value, ctx) => {
      const day = parseDate(value);
      const ms = day === null ? parseDateTime(value) : day + (end === 'to' ? 86_399_999 : 0);
      if (ms === null) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `${end} must be an ISO 8601 date (2026-11-01) or date-time with seconds and an offset (2026-11-01T09:30:00+07:00)`,
        });
        return z.NEVER;
      }
      return ms;
    })
    .meta({
      anyOf: [
        { format: 'date', pattern: DATE_PATTERN },
        { format: 'date-time', pattern: DATE_TIME_PATTERN },
      ],
      description:
        end === 'from'
          ? 'createdAt ≥ from. A date (2026-11-01: from its first millisecond, UTC) or a date-time with seconds and an offset (2026-11-01T09:30:00+07:00).'
          : 'createdAt ≤ to. A date (2026-11-01: to its last millisecond, UTC) or a date-time with seconds and an offset.',
    });

/** `from` must not come after `to`: the wording of that refusal, once. */
export const WINDOW_ORDER_MESSAGE = 'from must not be after to';

/** Numbers as text; a malformed one becomes a recipient with status invalid. */
export const msisdnText = z.string().meta({ description: '66XXXXXXXXX or 0XXXXXXXXX' });

/**
 * The rules across the members of a send or a preview, as JSON Schema keywords that validators
 * and fuzzers read: exactly one of content/templateId, at least one of msisdns/contactGroupId
 * (msisdns alone holding a valid number, or nothing could be sent), variables only with a
 * template. `messageRules` enforces the rules on the text; the use case that the recipients are
 * given and hold a valid number.
 */
export const MEMBER_RULES = [
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
];

/** The members `MEMBER_RULES` speaks of. */
interface MessageMembers {
  readonly content?: string;
  readonly templateId?: number;
  readonly variables?: TemplateVariables;
}

/**
 * Enforces MEMBER_RULES on the text, for a refine of a send or preview body: exactly one of
 * content and templateId, variables only with a template. (That the recipients are given, and
 * hold a valid number, is the use case's: the console gives them as an uploaded list too.)
 */
export function messageRules(body: MessageMembers, ctx: z.RefinementCtx): void {
  if ((body.content === undefined) === (body.templateId === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'Give exactly one of content or templateId' });
  }
  if (body.variables !== undefined && body.templateId === undefined) {
    ctx.addIssue({ code: 'custom', message: 'variables go with templateId, not content' });
  }
}

/** The text of a body `messageRules` accepted, as the use case takes it. */
export function messageText(body: MessageMembers): MessageText {
  return body.templateId !== undefined
    ? { templateId: body.templateId, variables: body.variables ?? {} }
    : // messageRules saw content given; an empty text is refused by the use case all the same.
      { content: body.content ?? '' };
}

/**
 * A parsed value, or the DomainError its first refusal answers with (`issueCode`): for what a
 * route parses itself rather than through its schema's validator.
 */
export function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new DomainError(issueCode(issue), issueMessage(issue));
}
