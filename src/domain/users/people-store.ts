import type { UserRole } from './user.js';

/** Who an invitation brings in: an account's owner or member (admins are made at a terminal). */
export type InvitedRole = Extract<UserRole, 'owner' | 'member'>;
export const INVITED_ROLES: readonly InvitedRole[] = ['owner', 'member'];

/** An invitation as stored: only the hash of its one-time token is kept. */
export interface Invitation {
  readonly id: number;
  readonly accountId: number;
  /** Lower-case (normaliseEmail). */
  readonly email: string;
  /** The name the inviter gave, offered to the invited person to keep or change; may be ''. */
  readonly name: string;
  readonly role: InvitedRole;
  /** The user who invited; null for the system. */
  readonly invitedBy: number | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** When it was accepted; null while it is open. */
  readonly usedAt: number | null;
}

export interface PasswordReset {
  readonly id: number;
  readonly userId: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
}

/**
 * What the invitation and password-reset use cases ask of storage. A revoked invitation is
 * deleted, and a re-sent one gets a new token hash, so an old link names nothing.
 */
export interface PeopleStore {
  insertInvitation(input: {
    accountId: number;
    email: string;
    name: string;
    role: InvitedRole;
    invitedBy: number | null;
    tokenHash: string;
    nowMs: number;
    expiresAt: number;
  }): Promise<Invitation>;
  findInvitation(id: number): Promise<Invitation | null>;
  findInvitationByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /** The account's invitations not accepted yet (expired ones too), newest first. */
  listOpenInvitations(accountId: number): Promise<Invitation[]>;
  /** A new token and expiry for an open invitation; null when it is gone or used. */
  renewInvitation(
    id: number,
    change: { tokenHash: string; nowMs: number; expiresAt: number },
  ): Promise<Invitation | null>;
  /** Marks it used if it was still open; false when another request used it first. */
  useInvitation(id: number, nowMs: number): Promise<boolean>;
  deleteInvitation(id: number): Promise<boolean>;

  insertPasswordReset(input: {
    userId: number;
    tokenHash: string;
    nowMs: number;
    expiresAt: number;
  }): Promise<PasswordReset>;
  findPasswordResetByTokenHash(tokenHash: string): Promise<PasswordReset | null>;
  /** Marks it used if it was still open; false when another request used it first. */
  usePasswordReset(id: number, nowMs: number): Promise<boolean>;
  /** Ends the user's open resets (a password was just set). */
  closePasswordResets(userId: number, nowMs: number): Promise<void>;

  /**
   * Deletes at most `limit` invitations and at most `limit` password resets that expired by
   * `expiredBy` (used ones too: a link is used before it expires); answers how many of each.
   */
  purgeOneTimeLinks(
    expiredBy: number,
    limit: number,
  ): Promise<{ invitations: number; passwordResets: number }>;

  /**
   * Deletes a user with what only they own (sessions, resets) and clears them as the inviter
   * of invitations. Audit lines keep their id.
   */
  deleteUser(userId: number): Promise<void>;
}
