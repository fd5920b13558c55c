import type { Transactor } from '../transactor.js';
import type { UserStore } from './user-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import { randomBytes } from 'node:crypto';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules.js';
import { hashPassword } from './passwords.js';
import { normaliseEmail, type User } from './user.js';
import { countCharacters } from '../limits.js';

/** 18 random bytes as base64url: 24 characters, 144 bits, nothing to escape in a shell. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Makes a platform admin (the first one comes from `nok admin user create --admin`): with the
 * password given, or a generated one answered once (only its argon2id hash is kept). Admins
 * must sign in with TOTP; they enrol at their first sign-in, whose session is restricted to
 * doing so.
 */
export async function createPlatformAdmin(
  store: Transactor<UserStore & AuditStore>,
  input: { email: string; name: string; password?: string; nowMs: number; actor: AuditActor },
): Promise<{ user: User; password: string; generated: boolean }> {
  const email = normaliseEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw invalidParameter(`"${input.email}" is not an email address`);
  }
  const name = input.name.trim();
  if (name.length === 0 || countCharacters(name) > 100) {
    throw invalidParameter('The name must have 1 to 100 characters');
  }
  const password = input.password ?? generatePassword();
  const passwordChars = countCharacters(password);
  if (passwordChars < MIN_PASSWORD_LENGTH || passwordChars > MAX_PASSWORD_LENGTH) {
    throw invalidParameter(
      `The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
  const passwordHash = await hashPassword(password);
  const user = await store.transaction(async (tx) => {
    if (await tx.findUserByEmail(email)) {
      throw new DomainError('INVALID_TRANSITION', `${email} has a sign-in already`);
    }
    const created = await tx.createUser({
      email,
      name,
      role: 'admin',
      accountId: null,
      passwordHash,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      ...input.actor,
      accountId: null,
      action: 'user.create',
      targetType: 'user',
      targetId: created.id,
      detail: { email, role: 'admin' },
      at: input.nowMs,
    });
    return created;
  });
  return { user, password, generated: input.password === undefined };
}
