import type { Transactor } from '../transactor.js';
import type { UserStore } from './user-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { User } from './user.js';

/** A person changes their own name or time zone (null: the platform default). */
export async function updateProfile(
  store: Transactor<UserStore & AuditStore>,
  input: {
    userId: number;
    name?: string;
    timeZone?: string | null;
    ip: string | null;
    nowMs: number;
  },
): Promise<User> {
  return store.transaction(async (tx) => {
    const before = await tx.findUser(input.userId);
    if (!before) throw new DomainError('UNAUTHORIZED', 'Sign in first');
    const changed = await tx.updateUser(
      input.userId,
      { name: input.name, timeZone: input.timeZone },
      input.nowMs,
    );
    const fields = (['name', 'timeZone'] as const).filter(
      (field) => input[field] !== undefined && input[field] !== before[field],
    );
    if (fields.length > 0) {
      await recordAudit(tx, {
        actorUserId: input.userId,
        accountId: before.accountId,
        action: 'user.profile-changed',
        targetType: 'user',
        targetId: input.userId,
        detail: Object.fromEntries(fields.map((field) => [field, input[field]])),
        ip: input.ip,
        at: input.nowMs,
      });
    }
    return changed!;
  });
}
