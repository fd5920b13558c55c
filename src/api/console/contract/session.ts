import { z } from 'zod';
import { endpoints } from './endpoint.js';

/*
 * The console's session (`/console/api/session`):
 *
 *   GET    /session                      → Session (starts an anonymous one if there is none)
 *   POST   /session   SignInBody          → Session, signed in (a new session id and token)
 *   DELETE /session                      → Session, signed out (a new anonymous session)
 *   POST   /session/sign-out-everywhere  → Session, every session of the user ended
 *
 * A sign-in of someone with TOTP in force answers 401 TOTP_REQUIRED until the body carries
 * `totpCode` (the authenticator's code or a recovery code); the profile and two-factor routes
 * are in `profile.ts`.
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
  /** TOTP is in force: sign-in asks for a code. */
  totpEnabled: z.boolean(),
  /**
   * Why TOTP is required of them (`role`: platform admins; `account`: the owner said so), or
   * null. Required and not enabled: the session is restricted to the profile page until they
   * enrol (other routes answer 403 TOTP_ENROLMENT_REQUIRED).
   */
  totpRequired: z.enum(['role', 'account']).nullable(),
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

export const sessionEndpoints = endpoints({
  'GET /session': { response: sessionSchema },
  'POST /session': { body: signInBodySchema, response: sessionSchema },
  'DELETE /session': { response: sessionSchema },
  'POST /session/sign-out-everywhere': { response: sessionSchema },
});
