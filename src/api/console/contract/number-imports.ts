import { z } from 'zod';
import { pageQuerySchema } from './common.js';

/*
 * What contact groups and the blocklist share: lists of numbers searched by digits, numbers typed
 * by a person, and the report of an uploaded list (CSV or one number a line, streamed to the
 * server as the request body, never read whole by the browser).
 */

/** The content types an uploaded number list may be sent as. */
export const NUMBER_LIST_TYPES = ['text/csv', 'text/plain', 'application/octet-stream'] as const;

/**
 * The largest uploaded number list, in bytes, for a contact group, the blocklist or a send: two
 * million numbers with room for a few CSV columns beside them.
 */
export const NUMBER_LIST_MAX_BYTES = 256 * 1024 * 1024;

/** Numbers typed in a form at once (a longer list is a file to import). */
export const TYPED_NUMBERS_MAX = 1_000;

/** Why a line was rejected: `not-digits`, `wrong-length` (66… or 0… of the wrong length), `wrong-prefix`. */
export const REJECT_REASONS = ['not-digits', 'wrong-length', 'wrong-prefix'] as const;

export const rejectedLineSchema = z.object({
  line: z.number().int(),
  value: z.string(),
  reason: z.enum(REJECT_REASONS),
});
export type RejectedLine = z.infer<typeof rejectedLineSchema>;

export const numberImportReportSchema = z.object({
  added: z.number().int(),
  alreadyPresent: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  /** The first 100 rejected lines; `rejected` counts them all. */
  rejectedLines: z.array(rejectedLineSchema),
});
export type NumberImportReport = z.infer<typeof numberImportReportSchema>;

/** Numbers a person typed: all must be valid, or nothing changes. */
export const typedNumbersSchema = z.object({
  numbers: z.array(z.string().trim().min(1).max(32)).min(1).max(TYPED_NUMBERS_MAX),
});
export type TypedNumbers = z.infer<typeof typedNumbersSchema>;

/** A page of numbers, `search` a run of digits anywhere in the number (0… reads as 66…). */
export const numberPageQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(16).regex(/^\d*$/, 'search with digits only').optional(),
});
export type NumberPageQuery = z.infer<typeof numberPageQuerySchema>;
