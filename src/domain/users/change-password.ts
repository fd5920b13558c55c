import type { UserStore } from './user-store.js';
import type { AttemptStore } from './attempt-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Transactor } from '../transactor.js';
import type { SessionStore } from './session-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import { countAttempt, giveBack } from './attempt-throttle.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { startSession } from './sessions.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { SessionRecord } from './user.js';

/**
 * A signed-in person changes their password, giving the current one. A wrong current password
 * counts as a failed sign-in of their email (the same limit, so a stolen session cannot guess
 * at it). On success every other session of theirs ends and this one gets a new id.
 */
export async function changePassword(
  store: UserStore & AttemptStore & AuditStore & Transactor<UserStore & SessionStore & AuditStore>,
  input: {
    userId: number;
    currentPassword: string;
    newPassword: string;
    sessionIdHash: string;
    ip: string;
    nowMs: number;
  },
  limits: SignInLimits,
): Promise<{ id: string; session: SessionRecord }> {
  const user = await store.findUser(input.userId);
  if (!user || user.status !== 'active') throw new DomainError('UNAUTHORIZED', 'Sign in first');
  // Counted before the check, like a sign-in (attempt-throttle.ts), so racing guesses get no more.
  const { counted } = await countAttempt(
    store,
    [{ scope: `user:${user.email}`, limit: limits.perUser }],
    limits.windowMs,
    input.nowMs,
  );
  if (!counted)
    throw new DomainError('RATE_LIMITED', 'Too many wrong passwords; wait a few minutes');
  const matches =
    user.passwordHash !== null && (await passwordMatches(user.passwordHash, input.currentPassword));
  if (!matches) {
    await recordAudit(store, {
      actorUserId: user.id,
      accountId: user.accountId,
      action: 'user.password-change-failed',
      targetType: 'user',
      targetId: user.id,
      ip: input.ip,
      at: input.nowMs,
    });
    throw new DomainError('INVALID_PARAMETER', 'The current password is not right');
  }
  await giveBack(store, counted);
  const passwordHash = await hashPassword(input.newPassword);
  return store.transaction(async (tx) => {
    await tx.updateUser(user.id, { passwordHash }, input.nowMs);
    const ended = await tx.deleteUserSessions(user.id);
    const started = await startSession(tx, { userId: user.id, ip: input.ip, nowMs: input.nowMs });
    await recordAudit(tx, {
      actorUserId: user.id,
      accountId: user.accountId,
      action: 'user.password-changed',
      targetType: 'user',
      targetId: user.id,
      // This session is ended and begun again; the others are gone for good.
      detail: { otherSessionsEnded: Math.max(0, ended - 1) },
      ip: input.ip,
      at: input.nowMs,
    });
    return started;
  });
}
