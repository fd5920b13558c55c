import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app reads them: SHA-1, six
 * digits, 30-second steps. The otpauth library is used here and nowhere else.
 */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that are accepted, for clocks that drift and slow typists. */
const WINDOW_STEPS = 1;
const ISSUER = 'Nok';

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as apps take it by hand. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://totp/…` URI an authenticator app scans, labelled with the person's email. */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The code of the step `nowMs` falls in (tests and the CLI's checks use it). */
export function totpCode(secret: string, nowMs: number): string {
  return totpOf(secret).generate({ timestamp: nowMs });
}

/** Whether `code` looks like an authenticator's code (six digits) rather than a recovery code. */
export function isTotpCodeShaped(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/**
 * The step (30-second counter since the epoch) `code` belongs to, within a step either side of
 * `nowMs`; null when it belongs to none. The caller refuses a step not later than the last one
 * used (`Store.claimTotpStep`), so a code works once.
 */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window: WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}

/** How many recovery codes a person gets at enrolment and at each regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without the ones people misread (0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUPS = 4;
const RECOVERY_GROUP_LENGTH = 4;

/**
 * Ten recovery codes like `k7q2-9xhm-4tcp-w8rd`: 16 characters of a 31-letter alphabet, about
 * 79 bits each, so a plain SHA-256 of each is as good as a slow hash (nobody can try 2^79).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_GROUPS }, () =>
      Array.from(
        { length: RECOVERY_GROUP_LENGTH },
        () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
      ).join(''),
    ).join('-'),
  );
}

/** The stored form of a recovery code: SHA-256 of it without dashes, spaces or capitals. */
export function hashRecoveryCode(code: string): string {
  const normalised = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`nok-recovery:${normalised}`).digest('hex');
}
