import type { UserStore } from './user-store.js';
import type { Transactor } from '../transactor.js';
import type { SessionStore } from './session-store.js';
import type { AttemptStore } from './attempt-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { ConsoleLinks } from '../mail/console-links.js';
import { passwordResetMail } from '../mail/mail-texts.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { checkNewPassword } from './accept-invitation.js';
import { countAttempt } from './attempt-throttle.js';
import { hashOneTimeToken, isTokenShaped, newOneTimeToken } from './one-time-token.js';
import { hashPassword } from './passwords.js';
import type { PasswordReset, PeopleStore } from './people-store.js';
import { normaliseEmail, type User } from './user.js';

/** How many reset requests are served within `windowMs`: per address (429), per person (no mail). */
export interface PasswordResetLimits {
  readonly windowMs: number;
  readonly perAddress: number;
  readonly perUser: number;
}

export const DEFAULT_PASSWORD_RESET_LIMITS: PasswordResetLimits = {
  windowMs: 60 * 60_000,
  perAddress: 10,
  perUser: 3,
};

/**
 * "Forgot password": when `email` names an active person, a one-time link is made and its mail
 * answered (to post after the commit); otherwise nothing is. The caller answers the same either
 * way, so the form tells nobody who has a sign-in. Requests are counted per address (past the
 * limit: 429, whoever is asked for) and per person (past the limit: silently no more mail, so
 * nobody can flood someone's inbox).
 */
export async function requestPasswordReset(
  store: AttemptStore & Transactor<UserStore & AttemptStore & PeopleStore & AuditStore>,
  input: {
    email: string;
    ip: string;
    nowMs: number;
    links: ConsoleLinks;
    lifetimeMs: number;
    limits: PasswordResetLimits;
  },
): Promise<{ mail: OutgoingMail | null }> {
  const email = normaliseEmail(input.email);
  const { windowMs } = input.limits;
  const address = await countAttempt(
    store,
    [{ scope: `reset-ip:${input.ip}`, limit: input.limits.perAddress }],
    windowMs,
    input.nowMs,
  );
  if (!address.counted) {
    throw new DomainError(
      'RATE_LIMITED',
      'Too many password reset requests; wait a while and try again',
    );
  }
  const { token, tokenHash } = newOneTimeToken();
  return store.transaction(async (tx) => {
    const user = await tx.findUserByEmail(email);
    const audit = { actorUserId: null, ip: input.ip, at: input.nowMs };
    if (!user || user.status !== 'active') {
      await recordAudit(tx, {
        ...audit,
        accountId: null,
        action: 'password-reset.request',
        detail: { email, outcome: 'no such person' },
      });
      return { mail: null };
    }
    const target = { accountId: user.accountId, targetType: 'user', targetId: user.id };
    const person = await countAttempt(
      tx,
      [{ scope: `reset-user:${user.id}`, limit: input.limits.perUser }],
      windowMs,
      input.nowMs,
    );
    if (!person.counted) {
      await recordAudit(tx, {
        ...audit,
        ...target,
        action: 'password-reset.request',
        detail: { email, outcome: 'throttled, no mail' },
      });
      return { mail: null };
    }
    const reset = await tx.insertPasswordReset({
      userId: user.id,
      tokenHash,
      nowMs: input.nowMs,
      expiresAt: input.nowMs + input.lifetimeMs,
    });
    await recordAudit(tx, {
      ...audit,
      ...target,
      action: 'password-reset.request',
      detail: { email, outcome: 'mailed', resetId: reset.id },
    });
    return {
      mail: passwordResetMail({
        to: user.email,
        link: input.links.passwordReset(token),
        lifetimeMs: input.lifetimeMs,
      }),
    };
  });
}

/** The open reset a mailed token names, with its person; errors as for invitations. */
export async function openPasswordReset(
  store: UserStore & PeopleStore,
  token: string,
  nowMs: number,
): Promise<{ reset: PasswordReset; user: User }> {
  const reset = isTokenShaped(token)
    ? await store.findPasswordResetByTokenHash(hashOneTimeToken(token))
    : null;
  const user = reset ? await store.findUser(reset.userId) : null;
  if (!reset || !user || user.status !== 'active') {
    throw new DomainError(
      'NOT_FOUND',
      'This password reset link is not valid: it was copied wrong or its person is gone. Ask for a new one.',
    );
  }
  if (reset.usedAt !== null) {
    throw new DomainError(
      'LINK_USED',
      'This password reset link has been used already. Ask for a new one if you need it.',
    );
  }
  if (reset.expiresAt <= nowMs) {
    throw new DomainError(
      'LINK_EXPIRED',
      'This password reset link has expired. Ask for a new one from the sign-in page.',
    );
  }
  return { reset, user };
}

/**
 * Sets a new password by a mailed link: uses the token up (and every other open reset of the
 * person), ends every session of the person, and clears their failed sign-ins, in one
 * transaction with its audit line. The person then signs in with the new password.
 */
export async function resetPassword(
  store: UserStore &
    PeopleStore &
    Transactor<UserStore & SessionStore & AttemptStore & PeopleStore & AuditStore>,
  input: { token: string; password: string; ip: string | null; nowMs: number },
): Promise<User> {
  checkNewPassword(input.password);
  await openPasswordReset(store, input.token, input.nowMs);
  const passwordHash = await hashPassword(input.password);
  return store.transaction(async (tx) => {
    const { reset, user } = await openPasswordReset(tx, input.token, input.nowMs);
    if (!(await tx.usePasswordReset(reset.id, input.nowMs))) {
      throw new DomainError('LINK_USED', 'This password reset link has been used already');
    }
    await tx.closePasswordResets(user.id, input.nowMs);
    const updated = await tx.updateUser(user.id, { passwordHash }, input.nowMs);
    const sessionsEnded = await tx.deleteUserSessions(user.id);
    await tx.clearAttempts(`user:${user.email}`);
    await recordAudit(tx, {
      actorUserId: user.id,
      accountId: user.accountId,
      action: 'password-reset.complete',
      targetType: 'user',
      targetId: user.id,
      detail: { email: user.email, resetId: reset.id, sessionsEnded },
      ip: input.ip,
      at: input.nowMs,
    });
    return updated ?? user;
  });
}
