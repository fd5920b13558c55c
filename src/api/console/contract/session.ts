import { z } from 'zod';

/*
 * The console's session (`/console/api/session`):
 *
 *   GET    /session                      → Session (starts an anonymous one if there is none)
 *   POST   /session   SignInBody          → Session, signed in (a new session id and token)
 *   DELETE /session                      → Session, signed out (a new anonymous session)
 *   POST   /session/sign-out-everywhere  → Session, every session of the user ended
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
  timeZone: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z.object({
  user: sessionUserSchema.nullable(),
  /** Send it as `x-csrf-token` on every state-changing request of this session. */
  csrfToken: z.string().min(1),
});
export type Session = z.infer<typeof sessionSchema>;

export const signInBodySchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(1024),
  /** The authenticator's six digits, or a recovery code; asked for with 401 TOTP_REQUIRED. */
  totpCode: z.string().trim().min(6).max(32).optional(),
});
export type SignInBody = z.infer<typeof signInBodySchema>;
