import type { Transactor } from '../transactor.js';
import type { UserStore } from './user-store.js';
import type { SessionStore } from './session-store.js';
import type { PeopleStore } from './people-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AccountLock } from '../accounts/account-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { User } from './user.js';

/**
 * Removes a person from their account: their sessions end at once and their sign-in is deleted
 * (so the email can be invited again); the audit log keeps what they did. Nobody removes
 * themselves, and an account always keeps one owner. An owner names only people of their own
 * account (another account's is 403); `accountId` null is a platform admin.
 */
export async function removeMember(
  store: Transactor<UserStore & SessionStore & PeopleStore & AuditStore & AccountLock>,
  input: { userId: number; accountId: number | null; nowMs: number; actor: AuditActor },
): Promise<User> {
  return store.transaction(async (tx) => {
    const user = await tx.findUser(input.userId);
    if (!user || user.accountId === null) {
      throw new DomainError('NOT_FOUND', `user ${input.userId} is not a person of an account`);
    }
    if (input.accountId !== null && user.accountId !== input.accountId) {
      throw new DomainError('FORBIDDEN', 'This person belongs to another account');
    }
    if (user.id === input.actor.actorUserId) {
      throw new DomainError('NOT_REMOVABLE', 'You cannot remove yourself; ask another owner');
    }
    if (user.role === 'owner') {
      // Two owners removing each other at once: the second waits here and then counts one.
      await tx.lockAccount(user.accountId);
      const owners = await tx.listUsers({ accountId: user.accountId, role: 'owner' });
      if (owners.filter((o) => o.status === 'active').length <= 1) {
        throw new DomainError(
          'NOT_REMOVABLE',
          'This is the last owner of the account; make someone else an owner first',
        );
      }
    }
    const sessionsEnded = await tx.deleteUserSessions(user.id);
    await tx.deleteUser(user.id);
    await recordAudit(tx, {
      ...input.actor,
      accountId: user.accountId,
      action: 'user.remove',
      targetType: 'user',
      targetId: user.id,
      detail: { email: user.email, role: user.role, sessionsEnded },
      at: input.nowMs,
    });
    return user;
  });
}
