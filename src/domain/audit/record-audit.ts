import type { AuditStore } from './audit-store.js';
import { isAuditAction } from './audit-actions.js';
import type { AuditEventInput } from './audit-event.js';

/** Names of detail fields that would carry a secret: refused, whatever their value. */
const SECRET_FIELD =
  /pass(word|phrase)?|secret|token|totp|recovery|hash|cookie|^key$|apikey|api_key/i;
/** A whole API key (`nok_<prefix>_<secret>`), a PHC hash, or a long random-looking string. */
const SECRET_VALUE = [/nok_[a-z2-7]{12}_[A-Za-z0-9_-]{32}/, /\$argon2/];

/**
 * Writes one line of the audit log through `store` — pass the transaction's store, so the line
 * is written with the change it records or not at all. `action` is one of `AUDIT_ACTIONS`.
 *
 * The log never holds a secret: a detail field named like one (password, token, secret, key,
 * totp, recovery, hash, …) or a value shaped like a full API key or a password hash makes this
 * throw, so the mistake shows in the first test that takes that path rather than in the log.
 */
export async function recordAudit(store: AuditStore, event: AuditEventInput): Promise<void> {
  if (!isAuditAction(event.action)) {
    throw new Error(`Audit action '${event.action}' is not in AUDIT_ACTIONS (audit-actions.ts)`);
  }
  assertNoSecret(event.detail ?? {}, 'detail');
  if (typeof event.targetId === 'string') assertNoSecret(event.targetId, 'targetId');
  await store.insertAuditEvent(event);
}

function assertNoSecret(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (SECRET_VALUE.some((pattern) => pattern.test(value))) {
      throw new Error(`Audit ${path} holds a secret-shaped value`);
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertNoSecret(item, `${path}[${i}]`));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [field, inner] of Object.entries(value)) {
      if (SECRET_FIELD.test(field)) throw new Error(`Audit ${path}.${field} names a secret`);
      assertNoSecret(inner, `${path}.${field}`);
    }
  }
}
