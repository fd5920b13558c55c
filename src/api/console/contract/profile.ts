import { z } from 'zod';
import { isTimeZone } from '../../../domain/time-zones.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../domain/users/password-rules.js';
import { endpoints } from './endpoint.js';
import { sessionSchema } from './session.js';

/*
 * The signed-in person's own profile and two-factor sign-in (`/console/api/profile`), open to
 * every role, and to a session restricted until TOTP enrolment:
 *
 *   GET   /profile                               → Profile
 *   PATCH /profile           ProfileChange        → Profile
 *   POST  /profile/password  PasswordChange       → Session (a new id; other sessions end)
 *   POST  /profile/totp                          → TotpEnrolment (a new secret, not in force yet)
 *   POST  /profile/totp/confirm         TotpCode → TotpConfirmed (recovery codes, shown once; a new session id)
 *   POST  /profile/totp/recovery-codes  TotpCode → RecoveryCodes (the old ones stop working)
 *   POST  /profile/totp/disable         TotpCode → Profile
 *
 * And the owner's switch for the account (`/console/api/account/two-factor`):
 *
 *   PUT   /account/two-factor  TwoFactorRequirement → TwoFactorRequirement
 */

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

export const profileSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['member', 'owner', 'admin']),
  accountId: z.number().int().nullable(),
  /** IANA zone; null: the platform default (Asia/Bangkok). */
  timeZone: z.string().nullable(),
  totp: z.object({
    enabled: z.boolean(),
    /** Why it is required (`role`: platform admin; `account`: the owner requires it), or null. */
    required: z.enum(['role', 'account']).nullable(),
    /** An enrolment was started and awaits its code. */
    pending: z.boolean(),
    /** Unused recovery codes. */
    recoveryCodesLeft: z.number().int(),
  }),
  /** The owner's account setting; null for everyone but owners. */
  accountRequiresTotp: z.boolean().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileChangeSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    timeZone: z
      .string()
      .max(64)
      .refine(isTimeZone, { message: 'Not an IANA time zone (e.g. Asia/Bangkok)' })
      .nullable()
      .optional(),
  })
  .refine((c) => c.name !== undefined || c.timeZone !== undefined, {
    message: 'Give name or timeZone',
  });
export type ProfileChange = z.infer<typeof profileChangeSchema>;

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, { message: `At least ${MIN_PASSWORD_LENGTH} characters` })
    .max(MAX_PASSWORD_LENGTH),
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

export const totpEnrolmentSchema = z.object({
  /** The `otpauth://` URI the QR code holds. */
  uri: z.string(),
  /** The QR code of `uri` as an SVG `data:` URL, for an `<img>`. */
  qrCode: z.string(),
  /** The secret in base32, for typing into an app by hand. */
  secret: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpCodeSchema = z.object({
  /** Six digits from the authenticator app (spaces are ignored). */
  code: z
    .string()
    .trim()
    .regex(/^\d{3} ?\d{3}$/, { message: 'Six digits' }),
});
export type TotpCode = z.infer<typeof totpCodeSchema>;

export const recoveryCodesSchema = z.object({
  /** Shown this once; only their hashes are kept. Each signs in once in place of a code. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const totpConfirmedSchema = recoveryCodesSchema.extend({
  /** The session with its new id and CSRF token. */
  session: sessionSchema,
});
export type TotpConfirmed = z.infer<typeof totpConfirmedSchema>;

export const twoFactorRequirementSchema = z.object({ required: z.boolean() });
export type TwoFactorRequirement = z.infer<typeof twoFactorRequirementSchema>;

export const profileEndpoints = endpoints({
  'GET /profile': { response: profileSchema },
  'PATCH /profile': { body: profileChangeSchema, response: profileSchema },
  'POST /profile/password': { body: passwordChangeSchema, response: sessionSchema },
  'POST /profile/totp': { response: totpEnrolmentSchema },
  'POST /profile/totp/confirm': { body: totpCodeSchema, response: totpConfirmedSchema },
  'POST /profile/totp/recovery-codes': { body: totpCodeSchema, response: recoveryCodesSchema },
  'POST /profile/totp/disable': { body: totpCodeSchema, response: profileSchema },
  'PUT /account/two-factor': {
    body: twoFactorRequirementSchema,
    response: twoFactorRequirementSchema,
  },
});
