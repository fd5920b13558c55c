import { z } from 'zod';
import {
  NUMBER_LIST_TYPES,
  numberImportReportSchema,
  numberPageQuerySchema,
  typedNumbersSchema,
} from './number-imports.js';
import { endpoints } from './endpoint.js';

/** The console's contact groups (members and owners). Shared with the browser: zod only. */

export const GROUP_NAME_MAX = 100;

/** A group with how many numbers it holds (`size`), as the compose page's picker reads it too. */
export const contactGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
});
export type ContactGroupView = z.infer<typeof contactGroupSchema>;

export const contactGroupListSchema = z.object({ data: z.array(contactGroupSchema) });
export type ContactGroupList = z.infer<typeof contactGroupListSchema>;

export const contactGroupBodySchema = z.object({
  name: z.string().trim().min(1).max(GROUP_NAME_MAX),
});
export type ContactGroupBody = z.infer<typeof contactGroupBodySchema>;

export const contactGroupParamsSchema = z.object({
  groupId: z.coerce.number().int().positive(),
});

export const memberPageSchema = z.object({
  data: z.array(z.object({ msisdn: z.string() })),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type MemberPage = z.infer<typeof memberPageSchema>;

export const membersChangedSchema = z.object({
  added: z.number().int().optional(),
  removed: z.number().int().optional(),
  memberCount: z.number().int(),
});
export type MembersChanged = z.infer<typeof membersChangedSchema>;

export const groupImportReportSchema = numberImportReportSchema.extend({
  memberCount: z.number().int(),
});
export type GroupImportReport = z.infer<typeof groupImportReportSchema>;

export const deletedGroupSchema = z.object({ members: z.number().int() });

export const contactGroupEndpoints = endpoints({
  'GET /contact-groups': { response: contactGroupListSchema },
  'POST /contact-groups': {
    body: contactGroupBodySchema,
    status: 201,
    response: contactGroupSchema,
  },
  'GET /contact-groups/:groupId': {
    params: contactGroupParamsSchema,
    response: contactGroupSchema,
  },
  'PATCH /contact-groups/:groupId': {
    params: contactGroupParamsSchema,
    body: contactGroupBodySchema,
    response: contactGroupSchema.pick({ id: true, name: true }),
  },
  'DELETE /contact-groups/:groupId': {
    params: contactGroupParamsSchema,
    response: deletedGroupSchema,
  },
  'GET /contact-groups/:groupId/members': {
    params: contactGroupParamsSchema,
    query: numberPageQuerySchema,
    response: memberPageSchema,
  },
  'POST /contact-groups/:groupId/members': {
    params: contactGroupParamsSchema,
    body: typedNumbersSchema,
    response: membersChangedSchema,
  },
  'DELETE /contact-groups/:groupId/members': {
    params: contactGroupParamsSchema,
    body: typedNumbersSchema,
    response: membersChangedSchema,
  },
  'POST /contact-groups/:groupId/import': {
    params: contactGroupParamsSchema,
    upload: { kind: 'file', types: NUMBER_LIST_TYPES },
    response: groupImportReportSchema,
  },
});
