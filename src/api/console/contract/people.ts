import { z } from 'zod';
import { accountParamsSchema } from './accounts.js';
import { endpoints } from './endpoint.js';
import { roleSchema, sessionSchema } from './session.js';

/*
 * People of an account and getting in (`/console/api`). Shared with the browser: imports
 * nothing but zod (and its neighbours).
 *
 * owner:  GET    /users                                  → People
 *         POST   /invitations            InviteBody      → Invitation (201), mailed
 *         POST   /invitations/:id/resend                 → Invitation, mailed with a new link
 *         DELETE /invitations/:id                        → Invitation (revoked)
 *         DELETE /users/:userId                          → Person (removed)
 * admin:  GET    /admin/accounts/:accountId/users        → People
 *         POST   /admin/accounts/:accountId/invitations  InviteBody (role default owner)
 *         POST   /admin/invitations/:id/resend, DELETE /admin/invitations/:id
 * guest:  POST   /invitation/look-up     TokenBody       → InvitationPreview
 *         POST   /invitation/accept      AcceptBody      → Session (signed in)
 *         POST   /password-reset/request ResetRequest    → ResetRequested (202, always the same)
 *         POST   /password-reset/look-up TokenBody       → ResetPreview
 *         POST   /password-reset/complete CompleteBody   → ResetDone
 */

/** At least this many characters in a password set here (the domain's MIN_PASSWORD_LENGTH). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;
export const PERSON_NAME_MAX = 100;

export const invitedRoleSchema = z.enum(['owner', 'member']);
export type InvitedRole = z.infer<typeof invitedRoleSchema>;

export const personSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  status: z.enum(['active', 'disabled']),
  createdAt: z.string(),
});
export type Person = z.infer<typeof personSchema>;

export const invitationSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: invitedRoleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Past its expiry: re-send it to mail a new link. */
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const peopleSchema = z.object({
  users: z.array(personSchema),
  /** Invitations not accepted yet, newest first. */
  invitations: z.array(invitationSchema),
});
export type People = z.infer<typeof peopleSchema>;

export const inviteBodySchema = z.object({
  email: z.email().max(254),
  role: invitedRoleSchema.default('member'),
  /** Offered to the person to keep or change when they accept. */
  name: z.string().trim().max(PERSON_NAME_MAX).optional(),
});
export type InviteBody = z.input<typeof inviteBodySchema>;

/** An admin invites an account's owner (or, if they say so, a member). */
export const adminInviteBodySchema = inviteBodySchema.extend({
  role: invitedRoleSchema.default('owner'),
});
export type AdminInviteBody = z.input<typeof adminInviteBodySchema>;

export const invitationParamsSchema = z.object({
  invitationId: z.coerce.number().int().positive(),
});
export const userParamsSchema = z.object({
  userId: z.coerce.number().int().positive(),
});

/** A one-time token from a mailed link's fragment (`#token=…`). */
export const tokenBodySchema = z.object({ token: z.string().min(1).max(200) });
export type TokenBody = z.infer<typeof tokenBodySchema>;

export const newPasswordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

export const invitationPreviewSchema = z.object({
  accountName: z.string(),
  email: z.string(),
  name: z.string(),
  role: invitedRoleSchema,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const acceptInvitationBodySchema = z.object({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1).max(PERSON_NAME_MAX),
  password: newPasswordSchema,
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBodySchema>;

export const resetRequestBodySchema = z.object({ email: z.email().max(254) });
export type ResetRequestBody = z.infer<typeof resetRequestBodySchema>;

export const resetRequestedSchema = z.object({
  /** Always true: the answer never says whether the email has a sign-in. */
  accepted: z.literal(true),
});

export const resetPreviewSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type ResetPreview = z.infer<typeof resetPreviewSchema>;

export const completeResetBodySchema = z.object({
  token: z.string().min(1).max(200),
  password: newPasswordSchema,
});
export type CompleteResetBody = z.infer<typeof completeResetBodySchema>;

export const resetDoneSchema = z.object({ email: z.string() });

export const peopleEndpoints = endpoints({
  'GET /users': { response: peopleSchema },
  'POST /invitations': { body: inviteBodySchema, status: 201, response: invitationSchema },
  'POST /invitations/:invitationId/resend': {
    params: invitationParamsSchema,
    response: invitationSchema,
  },
  'DELETE /invitations/:invitationId': {
    params: invitationParamsSchema,
    response: invitationSchema,
  },
  'DELETE /users/:userId': { params: userParamsSchema, response: personSchema },
  'GET /admin/accounts/:accountId/users': { params: accountParamsSchema, response: peopleSchema },
  'POST /admin/accounts/:accountId/invitations': {
    params: accountParamsSchema,
    body: adminInviteBodySchema,
    status: 201,
    response: invitationSchema,
  },
  'POST /admin/invitations/:invitationId/resend': {
    params: invitationParamsSchema,
    response: invitationSchema,
  },
  'DELETE /admin/invitations/:invitationId': {
    params: invitationParamsSchema,
    response: invitationSchema,
  },
  'POST /invitation/look-up': { body: tokenBodySchema, response: invitationPreviewSchema },
  'POST /invitation/accept': { body: acceptInvitationBodySchema, response: sessionSchema },
  'POST /password-reset/request': {
    body: resetRequestBodySchema,
    status: 202,
    response: resetRequestedSchema,
  },
  'POST /password-reset/look-up': { body: tokenBodySchema, response: resetPreviewSchema },
  'POST /password-reset/complete': { body: completeResetBodySchema, response: resetDoneSchema },
});
