import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { UserStore } from './user-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AttemptStore } from './attempt-store.js';
import type { SessionStore } from './session-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import { startSession } from './sessions.js';
import type { SignInLimits } from './sign-in-limits.js';
import { requireCurrentCode, totpRequirement } from './two-factor.js';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri } from './totp.js';
import type { SessionRecord, User } from './user.js';

/** Who acts, from where, when: the signed-in user changing their own two-factor settings. */
export interface TotpActor {
  readonly userId: number;
  readonly ip: string | null;
  readonly nowMs: number;
}

async function activeUser(store: UserStore, userId: number): Promise<User> {
  const user = await store.findUser(userId);
  if (!user || user.status !== 'active') throw new DomainError('UNAUTHORIZED', 'Sign in first');
  return user;
}

function audit(user: User, actor: TotpActor, action: string, detail?: Record<string, unknown>) {
  return {
    actorUserId: user.id,
    accountId: user.accountId,
    action,
    targetType: 'user',
    targetId: user.id,
    detail,
    ip: actor.ip,
    at: actor.nowMs,
  };
}

/**
 * Begins enrolment: a new secret, kept beside the user but not in force until confirmed with a
 * code (a second start replaces it). Refused while TOTP is in force: disable it first.
 */
export async function startTotpEnrolment(
  store: UserStore & Transactor<UserStore & AuditStore>,
  actor: TotpActor,
): Promise<{ secret: string; uri: string }> {
  const user = await activeUser(store, actor.userId);
  if (user.totpEnabledAt !== null) {
    throw new DomainError('INVALID_TRANSITION', 'Two-factor sign-in is on already');
  }
  const secret = newTotpSecret();
  await store.transaction(async (tx) => {
    await tx.updateUser(user.id, { totpSecret: secret }, actor.nowMs);
    await recordAudit(tx, audit(user, actor, 'user.totp-enrolment-started'));
  });
  return { secret, uri: totpUri(secret, user.email) };
}

/**
 * Confirms enrolment with a current code of the new secret: TOTP is in force from now, ten
 * recovery codes are answered (only their hashes are kept: this is the one time they are
 * shown), and, since the person's session gains rights, it gets a new id and CSRF token.
 */
export async function confirmTotpEnrolment(
  store: UserStore & AttemptStore & Transactor<UserStore & SessionStore & AuditStore>,
  input: TotpActor & { code: string; sessionIdHash: string },
  limits: SignInLimits,
): Promise<{ recoveryCodes: string[]; id: string; session: SessionRecord; user: User }> {
  const user = await activeUser(store, input.userId);
  if (user.totpEnabledAt !== null) {
    throw new DomainError('INVALID_TRANSITION', 'Two-factor sign-in is on already');
  }
  if (user.totpSecret === null) {
    throw new DomainError('INVALID_TRANSITION', 'Start the enrolment first: no secret was made');
  }
  await requireCurrentCode(
    store,
    { user, secret: user.totpSecret, code: input.code, nowMs: input.nowMs },
    limits,
  );
  const recoveryCodes = newRecoveryCodes();
  return store.transaction(async (tx) => {
    const enabled = await tx.updateUser(
      user.id,
      { totpEnabledAt: input.nowMs, recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) },
      input.nowMs,
    );
    await tx.deleteSession(input.sessionIdHash);
    const started = await startSession(tx, {
      userId: user.id,
      ip: input.ip,
      nowMs: input.nowMs,
    });
    await recordAudit(
      tx,
      audit(user, input, 'user.totp-enabled', { codesIssued: recoveryCodes.length }),
    );
    return { recoveryCodes, ...started, user: enabled! };
  });
}

/** Ten new recovery codes for a current code; the old ones stop working. */
export async function regenerateRecoveryCodes(
  store: UserStore & AttemptStore & Transactor<UserStore & AuditStore>,
  input: TotpActor & { code: string },
  limits: SignInLimits,
): Promise<string[]> {
  const user = await activeUser(store, input.userId);
  if (user.totpEnabledAt === null || user.totpSecret === null) {
    throw new DomainError('INVALID_TRANSITION', 'Two-factor sign-in is off: enrol first');
  }
  await requireCurrentCode(
    store,
    { user, secret: user.totpSecret, code: input.code, nowMs: input.nowMs },
    limits,
  );
  const recoveryCodes = newRecoveryCodes();
  await store.transaction(async (tx) => {
    await tx.updateUser(
      user.id,
      { recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) },
      input.nowMs,
    );
    await recordAudit(
      tx,
      audit(user, input, 'user.recovery-codes-regenerated', { codesIssued: recoveryCodes.length }),
    );
  });
  return recoveryCodes;
}

/**
 * Turns TOTP off for a current code, forgetting the secret and the recovery codes. Refused
 * while the person's role (platform admin) or account requires it.
 */
export async function disableTotp(
  store: AccountStore & UserStore & AttemptStore & Transactor<UserStore & AuditStore>,
  input: TotpActor & { code: string },
  limits: SignInLimits,
): Promise<User> {
  const user = await activeUser(store, input.userId);
  if (user.totpEnabledAt === null || user.totpSecret === null) {
    throw new DomainError('INVALID_TRANSITION', 'Two-factor sign-in is off already');
  }
  const account = user.accountId === null ? null : await store.findAccount(user.accountId);
  const required = totpRequirement(user, account);
  if (required !== null) {
    throw new DomainError(
      'INVALID_TRANSITION',
      required === 'role'
        ? 'Platform admins must keep two-factor sign-in on'
        : 'This account requires two-factor sign-in of everyone; its owner can change that',
    );
  }
  await requireCurrentCode(
    store,
    { user, secret: user.totpSecret, code: input.code, nowMs: input.nowMs },
    limits,
  );
  return store.transaction(async (tx) => {
    const changed = await tx.updateUser(
      user.id,
      { totpSecret: null, totpEnabledAt: null, recoveryCodeHashes: [] },
      input.nowMs,
    );
    await recordAudit(tx, audit(user, input, 'user.totp-disabled'));
    return changed!;
  });
}

/**
 * An owner requires (or stops requiring) TOTP of everyone in the account. People who have not
 * enrolled get a restricted session at their next request, until they do. The owner must have
 * it in force first, or they would shut themselves out of this very switch.
 */
export async function setAccountTotpRequirement(
  store: Transactor<AccountStore & UserStore & AuditStore>,
  input: TotpActor & { accountId: number; required: boolean },
): Promise<boolean> {
  return store.transaction(async (tx) => {
    const account = await tx.findAccount(input.accountId);
    if (!account) throw new DomainError('NOT_FOUND', 'No such account');
    const owner = await tx.findUser(input.userId);
    if (input.required && owner?.totpEnabledAt == null) {
      throw new DomainError(
        'INVALID_TRANSITION',
        'Turn on two-factor sign-in for yourself first, then require it of everyone',
      );
    }
    if (account.requireTotp !== input.required) {
      await tx.setAccountRequireTotp(input.accountId, input.required);
      await recordAudit(tx, {
        actorUserId: input.userId,
        accountId: input.accountId,
        action: 'account.two-factor-requirement-changed',
        targetType: 'account',
        targetId: input.accountId,
        detail: { required: input.required },
        ip: input.ip,
        at: input.nowMs,
      });
    }
    return input.required;
  });
}
