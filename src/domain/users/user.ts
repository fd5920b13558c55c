/** What a person of the console is: an account's `owner` or `member`, or a platform `admin`. */
export type UserRole = 'owner' | 'member' | 'admin';
export const USER_ROLES: readonly UserRole[] = ['owner', 'member', 'admin'];

export type UserStatus = 'active' | 'disabled';

export interface User {
  readonly id: number;
  /** Lower-case; unique. */
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  /** The customer account; null for platform admins. */
  readonly accountId: number | null;
  /** argon2id PHC string; null until an invited person sets a password. */
  readonly passwordHash: string | null;
  /** Base32 TOTP secret; set while enrolling, in force once `totpEnabledAt` is set. */
  readonly totpSecret: string | null;
  readonly totpEnabledAt: number | null;
  /** The last TOTP step (30-second counter) used to sign in or confirm; earlier ones are refused. */
  readonly totpLastStep: number | null;
  /** Hashes of the recovery codes not used yet. */
  readonly recoveryCodeHashes: readonly string[];
  readonly status: UserStatus;
  /** IANA zone; null: the platform default (Asia/Bangkok). */
  readonly timeZone: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  readonly accountId: number | null;
  readonly passwordHash: string | null;
  readonly timeZone?: string | null;
  readonly nowMs: number;
}

/** The fields of a user a use case may change. */
export interface UserChanges {
  readonly name?: string;
  readonly role?: UserRole;
  readonly passwordHash?: string | null;
  readonly totpSecret?: string | null;
  readonly totpEnabledAt?: number | null;
  readonly totpLastStep?: number | null;
  readonly recoveryCodeHashes?: readonly string[];
  readonly status?: UserStatus;
  readonly timeZone?: string | null;
}

/** A browser's session as stored: signed in when `userId` is set. */
export interface SessionRecord {
  /** SHA-256 (hex) of the cookie's value; the value itself is never stored. */
  readonly idHash: string;
  readonly userId: number | null;
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly ip: string | null;
}

/** Emails are compared and stored lower-case, without surrounding space. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
