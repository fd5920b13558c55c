import { z } from 'zod';

/*
 *   GET /audit-events        ?action&offset&limit            → AuditPage (owner: the account's)
 *   GET /admin/audit-events  ?accountId&action&offset&limit  → AuditPage (admin: all)
 */

export const auditQuerySchema = z.object({
  /** One action (`session.sign-in`), or a family ending in a dot (`session.`). */
  action: z
    .string()
    .regex(/^[a-z][a-z.-]*$/)
    .max(64)
    .optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const adminAuditQuerySchema = auditQuerySchema.extend({
  accountId: z.coerce.number().int().min(1).optional(),
});

export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actorUserId: z.number().int().nullable(),
  /** The actor's email, when the actor is a person. */
  actorEmail: z.string().nullable(),
  accountId: z.number().int().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEventSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
