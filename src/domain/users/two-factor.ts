import type { UserStore } from './user-store.js';
import type { AttemptStore } from './attempt-store.js';
import type { Account } from '../accounts/account-store.js';
import { DomainError } from '../errors.js';
import { countAttempt, giveBack } from './attempt-throttle.js';
import type { SignInLimits } from './sign-in-limits.js';
import { hashRecoveryCode, isTotpCodeShaped, matchTotpStep } from './totp.js';
import type { User } from './user.js';

/**
 * Why a person must sign in with TOTP: platform admins always (`role`), an account's people
 * when its owner said so (`account`); null when it is their choice.
 */
export type TotpRequirement = 'role' | 'account' | null;

export function totpRequirement(
  user: Pick<User, 'role'>,
  account: Pick<Account, 'requireTotp'> | null,
): TotpRequirement {
  if (user.role === 'admin') return 'role';
  return account?.requireTotp ? 'account' : null;
}

/**
 * A person who must use TOTP and has not enrolled yet: signed in, they get a restricted session
 * (only the session, profile and enrolment routes answer; the rest 403 TOTP_ENROLMENT_REQUIRED).
 */
export function mustEnrolTotp(
  user: Pick<User, 'role' | 'totpEnabledAt'>,
  account: Pick<Account, 'requireTotp'> | null,
): boolean {
  return user.totpEnabledAt === null && totpRequirement(user, account) !== null;
}

/** How a second factor was given. */
export type SecondFactor =
  { readonly method: 'totp' } | { readonly method: 'recovery-code'; readonly codesLeft: number };

/**
 * Checks a code against a user's TOTP in force: an authenticator's six digits (of a step later
 * than the last one used, which it then becomes) or an unused recovery code (then used up).
 * Null when it is neither: wrong, already used, or no TOTP in force.
 */
export async function useSecondFactor(
  store: UserStore,
  user: User,
  code: string,
  nowMs: number,
): Promise<SecondFactor | null> {
  if (user.totpSecret === null || user.totpEnabledAt === null) return null;
  if (isTotpCodeShaped(code)) {
    const step = matchTotpStep(user.totpSecret, code, nowMs);
    if (step === null || !(await store.claimTotpStep(user.id, step))) return null;
    return { method: 'totp' };
  }
  const codesLeft = await store.consumeRecoveryCode(user.id, hashRecoveryCode(code));
  return codesLeft === null ? null : { method: 'recovery-code', codesLeft };
}

/**
 * A current authenticator code of `secret` for a change of the user's own two-factor settings
 * (confirm, regenerate, disable). Every code is counted in the user's `totp:` scope before it
 * is checked (a right one is given back); past the sign-in limit per user they answer 429 until
 * the window passes, so a stolen session cannot guess its way to turning TOTP off.
 */
export async function requireCurrentCode(
  store: UserStore & AttemptStore,
  input: { user: User; secret: string; code: string; nowMs: number },
  limits: SignInLimits,
): Promise<void> {
  const { counted } = await countAttempt(
    store,
    [{ scope: `totp:${input.user.id}`, limit: limits.perUser }],
    limits.windowMs,
    input.nowMs,
  );
  if (!counted) {
    throw new DomainError('RATE_LIMITED', 'Too many wrong codes; wait a few minutes and try again');
  }
  const step = matchTotpStep(input.secret, input.code, input.nowMs);
  if (step !== null && (await store.claimTotpStep(input.user.id, step))) {
    await giveBack(store, counted);
    return;
  }
  throw new DomainError(
    'TOTP_CODE_INVALID',
    'That code is not right or was used already; enter the current code from the authenticator app',
  );
}
