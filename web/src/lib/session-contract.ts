import { z } from 'zod';

/*
 * STAND-IN for the console API's session contract (`@contract/session`, in
 * src/api/console/contract/), which is not written yet. It holds only what the frame of the
 * console needs: who is signed in, with which role, and the CSRF token. When the contract
 * lands, this file is deleted and its importers import the schemas from `@contract/session`:
 * the browser must not keep a second copy of a server type.
 *
 *   GET    /console/api/session  → { user: SessionUser | null, csrfToken }
 *   POST   /console/api/session  { email, password, totpCode? } → the same body, signed in
 *   DELETE /console/api/session  signs out
 */

export const roleSchema = z.enum(['member', 'owner', 'admin']);
export type Role = z.infer<typeof roleSchema>;

export const sessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  /** The customer account; null for platform admins. */
  accountId: z.number().int().nullable(),
  /** IANA zone for dates; null: the platform default (Asia/Bangkok). */
  timeZone: z.string().nullable().optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z.object({
  user: sessionUserSchema.nullable(),
  csrfToken: z.string().min(1),
});
export type Session = z.infer<typeof sessionSchema>;

export const signInBodySchema = z.object({
  email: z.email(),
  password: z.string().min(1),
  totpCode: z.string().trim().min(6).max(32).optional(),
});
export type SignInBody = z.infer<typeof signInBodySchema>;
