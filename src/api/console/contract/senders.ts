import { z } from 'zod';
import { endpoints, type MultipartUpload } from './endpoint.js';
import { pageQuerySchema } from './common.js';
// The rules themselves live in the domain, in modules that import nothing, so this contract
// (which the browser bundles) and the use cases read one copy of every limit and list.
import { LIMITS } from '../../../domain/limits.js';
import { senderNameProblem } from '../../../domain/senders/sender-name.js';
import {
  DOCUMENT_TYPES,
  MAX_REGISTRATION_NUMBER_CHARS,
  MAX_REVIEW_NOTE_CHARS,
  MAX_SAMPLE_MESSAGES,
  MAX_SAMPLE_MESSAGE_CHARS,
  MIN_SAMPLE_MESSAGES,
  REGISTRATION_NUMBER_SHAPE,
  SENDER_PURPOSES,
  SENDER_REQUEST_STATUSES,
  SENDER_REQUEST_STEPS,
  SENDER_REVIEW_DECISIONS,
} from '../../../domain/senders/sender-request-rules.js';
import { SENDER_STATUSES } from '../../../domain/statuses.js';

export { MAX_SAMPLE_MESSAGE_CHARS, MAX_SAMPLE_MESSAGES, SENDER_PURPOSES, SENDER_STATUSES };
/** The longest sender name, in characters. */
export const SENDER_NAME_MAX = LIMITS.senderNameChars;

/*
 * Sender names and their requests, in the console API (/console/api):
 *
 * owner or member of the account
 *   GET  /senders                                   own and shared senders, with status
 *   GET  /sender-requests                            the account's requests, newest first
 *   GET  /sender-requests/:requestId                 one, with history, notes and documents
 *   GET  /sender-documents/:documentId               a document's bytes, as an attachment
 * owner
 *   POST /sender-requests                            multipart: `request` (JSON, senderRequestFormSchema)
 *                                                    and one or more `documents` files
 *   POST /sender-requests/:requestId/resubmit        multipart: `request` (JSON, resubmitFormSchema)
 *                                                    and any new `documents`
 * admin
 *   GET  /admin/senders?search=&status=             every sender of every account, oldest first
 *   GET  /admin/sender-requests?status=pending       the review queue (or every request)
 *   GET  /admin/sender-requests/:requestId           one request, any account
 *   POST /admin/sender-requests/:requestId/review    reviewBodySchema
 *   POST /admin/senders/:senderId/suspend | /reinstate
 *   POST /admin/senders/:senderId/shares             shareBodySchema
 *   DELETE /admin/senders/:senderId/shares/:accountId
 */

export const senderNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = senderNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const senderPurposeSchema = z.enum(SENDER_PURPOSES);
export const senderRequestStatusSchema = z.enum(SENDER_REQUEST_STATUSES);
export const senderRequestStepSchema = z.enum(SENDER_REQUEST_STEPS);
export const senderStatusSchema = z.enum(SENDER_STATUSES);
export type SenderStatus = z.infer<typeof senderStatusSchema>;
export const documentTypeSchema = z.enum(
  Object.keys(DOCUMENT_TYPES) as [keyof typeof DOCUMENT_TYPES, ...(keyof typeof DOCUMENT_TYPES)[]],
);

const sampleMessageSchema = z.string().trim().min(1).max(MAX_SAMPLE_MESSAGE_CHARS);

/** The details an owner gives (and gives again on a resubmission). */
export const senderRequestDetailsSchema = z.object({
  purpose: senderPurposeSchema,
  sampleMessages: z.array(sampleMessageSchema).min(MIN_SAMPLE_MESSAGES).max(MAX_SAMPLE_MESSAGES),
  registrationNumber: z
    .string()
    .trim()
    .max(MAX_REGISTRATION_NUMBER_CHARS)
    .regex(REGISTRATION_NUMBER_SHAPE, 'letters and digits, with spaces, dots, dashes or slashes'),
});

/** The `request` part of POST /sender-requests (the documents are the `documents` parts). */
export const senderRequestFormSchema = senderRequestDetailsSchema.extend({
  name: senderNameSchema,
});
export type SenderRequestForm = z.infer<typeof senderRequestFormSchema>;

/** The `request` part of POST /sender-requests/:id/resubmit: the name stays. */
export const resubmitFormSchema = senderRequestDetailsSchema;
export type ResubmitForm = z.infer<typeof resubmitFormSchema>;

export const reviewBodySchema = z
  .object({
    decision: z.enum(SENDER_REVIEW_DECISIONS),
    note: z.string().trim().max(MAX_REVIEW_NOTE_CHARS).optional(),
  })
  .refine((body) => body.decision === 'approve' || (body.note ?? '').length > 0, {
    message: 'write a note for the owner: what to change, or why the name is refused',
    path: ['note'],
  });
export type ReviewBody = z.infer<typeof reviewBodySchema>;

export const shareBodySchema = z.object({ accountId: z.number().int().positive() });
export type ShareBody = z.infer<typeof shareBodySchema>;

export const requestIdParamsSchema = z.object({ requestId: z.coerce.number().int().positive() });
export const documentIdParamsSchema = z.object({ documentId: z.coerce.number().int().positive() });
export const senderIdParamsSchema = z.object({ senderId: z.coerce.number().int().positive() });
export const shareParamsSchema = senderIdParamsSchema.extend({
  accountId: z.coerce.number().int().positive(),
});
export const reviewQueueQuerySchema = z.object({
  status: z.enum(['pending', 'all']).default('pending'),
});

const isoDate = z.string().describe('ISO 8601 date-time, UTC');

export const senderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: senderStatusSchema,
  /** True when another account owns it and shares it with this one. */
  shared: z.boolean(),
  createdAt: isoDate,
});
export type Sender = z.infer<typeof senderSchema>;

export const senderListSchema = z.object({
  data: z.array(senderSchema),
  /** What a document upload may be; the server checks the same. */
  documentLimits: z.object({
    maxBytes: z.number().int(),
    maxFilesPerSubmission: z.number().int(),
    types: z.array(documentTypeSchema),
  }),
});
export type SenderList = z.infer<typeof senderListSchema>;

export const senderRequestSummarySchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  name: z.string(),
  purpose: senderPurposeSchema,
  status: senderRequestStatusSchema,
  createdAt: isoDate,
  updatedAt: isoDate,
  decidedAt: isoDate.nullable(),
});
export type SenderRequestSummary = z.infer<typeof senderRequestSummarySchema>;

export const senderRequestListSchema = z.object({ data: z.array(senderRequestSummarySchema) });
export type SenderRequestList = z.infer<typeof senderRequestListSchema>;

export const historyStepSchema = z.object({
  id: z.number().int(),
  step: senderRequestStepSchema,
  /** Who took the step; null for the operator's command line. */
  actor: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
  note: z.string().nullable(),
  at: isoDate,
});
export type HistoryStep = z.infer<typeof historyStepSchema>;

export const senderDocumentSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  contentType: documentTypeSchema,
  sizeBytes: z.number().int(),
  sha256: z.string(),
  /** The history step (submission or resubmission) it came with. */
  stepId: z.number().int(),
  uploadedAt: isoDate,
  /** Where to open it (GET, as an attachment). */
  url: z.string(),
});
export type SenderDocument = z.infer<typeof senderDocumentSchema>;

export const senderRequestDetailSchema = senderRequestSummarySchema.extend({
  sampleMessages: z.array(z.string()),
  registrationNumber: z.string(),
  history: z.array(historyStepSchema),
  documents: z.array(senderDocumentSchema),
  /** The sender the approval made; shares and suspension are an admin's. */
  sender: z
    .object({
      id: z.number().int(),
      name: z.string(),
      status: senderStatusSchema,
      sharedWith: z.array(z.number().int()),
    })
    .nullable(),
});
export type SenderRequestDetail = z.infer<typeof senderRequestDetailSchema>;

export const adminSenderSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  name: z.string(),
  status: senderStatusSchema,
  sharedWith: z.array(z.number().int()),
});
export type AdminSender = z.infer<typeof adminSenderSchema>;

/** Every sender of the platform, as an admin manages it: its account, and whom it is shared with. */
export const adminSenderListQuerySchema = pageQuerySchema.extend({
  /** A part of the name, in any case (names are printable ASCII). */
  search: z
    .string()
    .trim()
    .max(32)
    .regex(/^[\x20-\x7e]*$/, 'letters, digits and symbols only')
    .optional(),
  status: senderStatusSchema.optional(),
});
export type AdminSenderListQuery = z.input<typeof adminSenderListQuerySchema>;

const accountRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const adminSenderRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: senderStatusSchema,
  account: accountRefSchema,
  sharedWith: z.array(accountRefSchema),
  createdAt: isoDate,
});
export type AdminSenderRow = z.infer<typeof adminSenderRowSchema>;

export const adminSenderListSchema = z.object({
  data: z.array(adminSenderRowSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type AdminSenderList = z.infer<typeof adminSenderListSchema>;

/** A request's documents: PDF, PNG or JPEG as their bytes show, in the `documents` field. */
function withDocuments<S extends z.ZodType>(form: S, filesRequired: boolean) {
  return {
    kind: 'multipart',
    formField: 'request',
    form,
    fileField: 'documents',
    fileTypes: documentTypeSchema.options,
    filesRequired,
  } as const satisfies MultipartUpload;
}

export const senderEndpoints = endpoints({
  'GET /senders': { response: senderListSchema },
  'GET /sender-requests': { response: senderRequestListSchema },
  'GET /sender-requests/:requestId': {
    params: requestIdParamsSchema,
    response: senderRequestDetailSchema,
  },
  'POST /sender-requests': {
    upload: withDocuments(senderRequestFormSchema, true),
    response: senderRequestDetailSchema,
  },
  'POST /sender-requests/:requestId/resubmit': {
    params: requestIdParamsSchema,
    upload: withDocuments(resubmitFormSchema, false),
    response: senderRequestDetailSchema,
  },
  'GET /sender-documents/:documentId': {
    params: documentIdParamsSchema,
    response: z.string().describe("The document's bytes, as an attachment"),
    download: documentTypeSchema.options,
  },
  'GET /admin/senders': { query: adminSenderListQuerySchema, response: adminSenderListSchema },
  'GET /admin/sender-requests': {
    query: reviewQueueQuerySchema,
    response: senderRequestListSchema,
  },
  'GET /admin/sender-requests/:requestId': {
    params: requestIdParamsSchema,
    response: senderRequestDetailSchema,
  },
  'POST /admin/sender-requests/:requestId/review': {
    params: requestIdParamsSchema,
    body: reviewBodySchema,
    response: senderRequestDetailSchema,
  },
  'POST /admin/senders/:senderId/suspend': {
    params: senderIdParamsSchema,
    response: adminSenderSchema,
  },
  'POST /admin/senders/:senderId/reinstate': {
    params: senderIdParamsSchema,
    response: adminSenderSchema,
  },
  'POST /admin/senders/:senderId/shares': {
    params: senderIdParamsSchema,
    body: shareBodySchema,
    response: adminSenderSchema,
  },
  'DELETE /admin/senders/:senderId/shares/:accountId': {
    params: shareParamsSchema,
    response: adminSenderSchema,
  },
});
