import { z } from 'zod';
import { endpoints } from './endpoint.js';

export { AUDIT_ACTION_FAMILIES } from '../../../domain/audit/audit-actions.js';

/*
 *   GET /audit-events        ?action&from&to&cursor&limit            → AuditPage (owner: the account's)
 *   GET /admin/audit-events  ?accountId&action&from&to&cursor&limit  → AuditPage (admin: all)
 *
 * Shared with the browser: imports nothing but zod and the domain's pure list of actions.
 */

export const AUDIT_PAGE_MAX = 100;

export const auditQuerySchema = z.object({
  /** One action (`session.sign-in`), or a family ending in a dot (`session.`). */
  action: z
    .string()
    .regex(/^[a-z][a-z.-]*$/)
    .max(64)
    .optional(),
  /** Events at or after this instant. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Events before this instant. */
  to: z.iso.datetime({ offset: true }).optional(),
  /** The `nextCursor` of the page before. */
  cursor: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const adminAuditQuerySchema = auditQuerySchema.extend({
  accountId: z.coerce.number().int().min(1).optional(),
});
export type AdminAuditQuery = z.input<typeof adminAuditQuerySchema>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actorUserId: z.number().int().nullable(),
  /** The actor's name and email, when the actor is a person (null: the system, or nobody known). */
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  accountId: z.number().int().nullable(),
  accountName: z.string().nullable(),
  /** `<area>.<verb>`, such as `api-key.create`. */
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** What the action changed; never a secret. */
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  data: z.array(auditEventSchema),
  /** The cursor of the next (older) page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditEndpoints = endpoints({
  'GET /audit-events': { query: auditQuerySchema, response: auditPageSchema },
  'GET /admin/audit-events': { query: adminAuditQuerySchema, response: auditPageSchema },
});
