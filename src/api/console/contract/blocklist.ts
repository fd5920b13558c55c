import { z } from 'zod';
import { endpoints } from './endpoint.js';
import {
  NUMBER_LIST_TYPES,
  numberImportReportSchema,
  numberPageQuerySchema,
  typedNumbersSchema,
} from './number-imports.js';

/**
 * The blocklist: an account's own entries (members and owners change them) and the platform-wide
 * ones (read-only to customers, changed by admins). Shared with the browser: zod only.
 */

export const blocklistEntrySchema = z.object({
  msisdn: z.string(),
  createdAt: z.string(),
});
export type BlocklistEntryView = z.infer<typeof blocklistEntrySchema>;

export const blocklistPageSchema = z.object({
  data: z.array(blocklistEntrySchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type BlocklistPage = z.infer<typeof blocklistPageSchema>;

export const blocklistAddedSchema = z.object({ added: z.number().int() });
export const blocklistRemovedSchema = z.object({ removed: z.number().int() });

const importUpload = { kind: 'file', types: NUMBER_LIST_TYPES } as const;

/**
 * The account's own entries (/blocklist, members and owners), the platform-wide ones as
 * customers read them (/blocklist/platform), and as admins change them (/admin/blocklist).
 */
export const blocklistEndpoints = endpoints({
  'GET /blocklist': { query: numberPageQuerySchema, response: blocklistPageSchema },
  'POST /blocklist': { body: typedNumbersSchema, response: blocklistAddedSchema },
  'DELETE /blocklist': { body: typedNumbersSchema, response: blocklistRemovedSchema },
  'POST /blocklist/import': { upload: importUpload, response: numberImportReportSchema },
  'GET /blocklist/platform': { query: numberPageQuerySchema, response: blocklistPageSchema },
  'GET /admin/blocklist': { query: numberPageQuerySchema, response: blocklistPageSchema },
  'POST /admin/blocklist': { body: typedNumbersSchema, response: blocklistAddedSchema },
  'DELETE /admin/blocklist': { body: typedNumbersSchema, response: blocklistRemovedSchema },
  'POST /admin/blocklist/import': { upload: importUpload, response: numberImportReportSchema },
});
