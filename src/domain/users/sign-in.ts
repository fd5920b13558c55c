import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { Store } from '../ports.js';
import { decoyHash, passwordMatches } from './passwords.js';
import { normaliseEmail, type User } from './user.js';

/** Failed sign-ins tolerated within `windowMs`, per email and per address. */
export interface SignInLimits {
  readonly windowMs: number;
  readonly perUser: number;
  readonly perAddress: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  windowMs: 15 * 60_000,
  perUser: 5,
  perAddress: 20,
};

/** The one answer to every failed sign-in: it never says which part was wrong. */
export const SIGN_IN_FAILED = 'The email or password is not right';

/**
 * Checks an email and password and answers the user. Failures are counted in the store (so
 * every api process sees them) per email and per address; past the limit every attempt is
 * refused (429, the same words whoever is tried) until the window has passed. A success clears
 * the email's count. Each failure is audited, without the password.
 */
export async function checkPassword(
  store: Store,
  input: { email: string; password: string; ip: string; nowMs: number },
  limits: SignInLimits,
): Promise<User> {
  const email = normaliseEmail(input.email);
  const scopes = [`user:${email}`, `ip:${input.ip}`];
  const since = input.nowMs - limits.windowMs;
  const [byUser, byAddress] = await Promise.all(
    scopes.map((scope) => store.countSignInFailures(scope, since)),
  );
  if (byUser! >= limits.perUser || byAddress! >= limits.perAddress) {
    await recordAudit(store, {
      actorUserId: null,
      accountId: null,
      action: 'session.sign-in-throttled',
      detail: { email },
      ip: input.ip,
      at: input.nowMs,
    });
    throw new DomainError(
      'RATE_LIMITED',
      'Too many sign-in attempts; wait a few minutes and try again',
    );
  }
  const user = await store.findUserByEmail(email);
  const matches = await passwordMatches(user?.passwordHash ?? (await decoyHash()), input.password);
  if (!user || !user.passwordHash || !matches || user.status !== 'active') {
    await store.transaction(async (tx) => {
      for (const scope of scopes) await tx.recordSignInFailure(scope, input.nowMs);
      await recordAudit(tx, {
        actorUserId: null,
        accountId: user?.accountId ?? null,
        action: 'session.sign-in-failed',
        targetType: user ? 'user' : null,
        targetId: user?.id ?? null,
        detail: { email },
        ip: input.ip,
        at: input.nowMs,
      });
    });
    throw new DomainError('UNAUTHORIZED', SIGN_IN_FAILED);
  }
  await store.clearSignInFailures(scopes[0]!);
  return user;
}
