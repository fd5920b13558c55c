import type { UserStore } from './user-store.js';
import type { AttemptStore } from './attempt-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import { countAttempt, giveBack } from './attempt-throttle.js';
import { decoyHash, passwordMatches } from './passwords.js';
import type { SignInLimits } from './sign-in-limits.js';
import { useSecondFactor, type SecondFactor } from './two-factor.js';
import { normaliseEmail, type User } from './user.js';

/** The one answer to every failed sign-in: it never says which part was wrong. */
export const SIGN_IN_FAILED = 'The email or password is not right';

/** The answer asked for when TOTP is in force and no code, or a wrong one, was given. */
export const SECOND_FACTOR_NEEDED =
  'Enter the current code from your authenticator app, or one of your recovery codes';

/**
 * Checks an email, password and (when the user has TOTP in force) second factor, and answers
 * the user and how the second factor was given. Every attempt is counted per address and per
 * email in the store (so every api process sees it) before the password is checked, and past
 * the limit refused (429, the same words whoever is tried) until the window has passed: however
 * many attempts race, no more than the limit are checked (docs/adr/0032). A wrong password or a
 * wrong code stays counted as a failure; a right password without a code is asked for one
 * (401 TOTP_REQUIRED) and given back. Only a whole success clears the email's count, so knowing
 * the password buys no extra guesses at the code. Each failure is audited without secrets; a
 * refusal once per scope and window.
 */
export async function checkSignIn(
  store: UserStore & AttemptStore & AuditStore,
  input: { email: string; password: string; totpCode?: string; ip: string; nowMs: number },
  limits: SignInLimits,
): Promise<{ user: User; secondFactor: SecondFactor | null }> {
  const email = normaliseEmail(input.email);
  const userScope = `user:${email}`;
  // The address first: attempts refused for their address do not count against the email.
  const { counted, refused } = await countAttempt(
    store,
    [
      { scope: `ip:${input.ip}`, limit: limits.perAddress },
      { scope: userScope, limit: limits.perUser },
    ],
    limits.windowMs,
    input.nowMs,
  );
  if (refused) {
    // Later refusals in the window change nothing and are not written: a flood of them cannot
    // grow the audit log.
    if (refused.firstInWindow) {
      await recordAudit(store, {
        actorUserId: null,
        accountId: null,
        action: 'session.sign-in-throttled',
        detail: { email, limit: refused.scope === userScope ? 'email' : 'address' },
        ip: input.ip,
        at: input.nowMs,
      });
    }
    throw new DomainError(
      'RATE_LIMITED',
      'Too many sign-in attempts; wait a few minutes and try again',
    );
  }
  const user = await store.findUserByEmail(email);
  const matches = await passwordMatches(user?.passwordHash ?? (await decoyHash()), input.password);
  // The attempt stays counted: it is a failure.
  const fail = (step: 'password' | 'second-factor') =>
    recordAudit(store, {
      actorUserId: null,
      accountId: user?.accountId ?? null,
      action: 'session.sign-in-failed',
      targetType: user ? 'user' : null,
      targetId: user?.id ?? null,
      detail: { email, step },
      ip: input.ip,
      at: input.nowMs,
    });
  if (!user || !user.passwordHash || !matches || user.status !== 'active') {
    await fail('password');
    throw new DomainError('UNAUTHORIZED', SIGN_IN_FAILED);
  }
  let secondFactor: SecondFactor | null = null;
  if (user.totpEnabledAt !== null) {
    if (input.totpCode === undefined) {
      await giveBack(store, counted);
      throw new DomainError('TOTP_REQUIRED', SECOND_FACTOR_NEEDED);
    }
    secondFactor = await useSecondFactor(store, user, input.totpCode, input.nowMs);
    if (!secondFactor) {
      await fail('second-factor');
      throw new DomainError('TOTP_REQUIRED', SECOND_FACTOR_NEEDED);
    }
  }
  await store.clearAttempts(userScope);
  await giveBack(store, { scopes: counted.scopes.filter((s) => s.scope !== userScope) });
  return { user, secondFactor };
}
