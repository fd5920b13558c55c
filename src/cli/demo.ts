import { SYSTEM_ACTOR } from '../domain/audit/audit-actor.js';
import type { Config } from '../config.js';
import { createAccount } from '../domain/accounts/create-account.js';
import { createApiKey } from '../domain/accounts/create-api-key.js';
import { systemClock } from '../domain/clock.js';
import type { Store } from '../domain/store.js';
import { createSender } from '../domain/senders/create-sender.js';
import { recordAudit } from '../domain/audit/record-audit.js';
import { hashPassword } from '../domain/users/passwords.js';
import { randomBytes } from 'node:crypto';

export const DEMO_ACCOUNT_NAME = 'Demo';
export const DEMO_SENDER = 'NOKDEMO';
/** The demo owner's sign-in; `.invalid` is reserved (RFC 2606), so no mail can reach anyone. */
export const DEMO_OWNER_EMAIL = 'owner@demo.invalid';
const SAMPLE_NUMBER = '0812345678';

/**
 * On an empty store (no account yet), creates a demo account with `config.demoCredits` credits,
 * the approved sender NOKDEMO, a `*` key and an owner sign-in (DEMO_OWNER_EMAIL with a generated
 * password), and prints how to send with it and how to sign in to the console. On any other store
 * it does and prints nothing, so restarting never mints a new key.
 */
export async function ensureDemoAccount(
  store: Store,
  config: Config,
  url: string | undefined,
  print: (line: string) => void,
): Promise<void> {
  if ((await store.countAccounts()) > 0) return;
  const nowMs = systemClock.now();
  let created: { accountId: number; key: string };
  // Printed once below, like the key; only its argon2id hash is stored.
  const ownerPassword = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(ownerPassword);
  try {
    created = await store.transaction(async (tx) => {
      const account = await createAccount(tx, {
        name: DEMO_ACCOUNT_NAME,
        credits: config.demoCredits,
        nowMs,
        actor: SYSTEM_ACTOR,
      });
      await createSender(tx, {
        accountId: account.id,
        name: DEMO_SENDER,
        status: 'approved',
        nowMs,
      });
      const { key } = await createApiKey(tx, {
        accountId: account.id,
        scopes: ['*'],
        name: 'demo',
        nowMs,
        actor: SYSTEM_ACTOR,
      });
      const owner = await tx.createUser({
        email: DEMO_OWNER_EMAIL,
        name: 'Demo owner',
        role: 'owner',
        accountId: account.id,
        passwordHash,
        nowMs,
      });
      await recordAudit(tx, {
        ...SYSTEM_ACTOR,
        accountId: account.id,
        action: 'user.create',
        targetType: 'user',
        targetId: owner.id,
        detail: { email: owner.email, role: owner.role },
        at: nowMs,
      });
      return { accountId: account.id, key };
    });
  } catch (error) {
    // Two processes started on one empty store: the unique sender name lets only one create the
    // demo; the other finds an account and stays quiet.
    if ((await store.countAccounts()) > 0) return;
    throw error;
  }

  const base = (url ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
  const body = JSON.stringify({
    sender: DEMO_SENDER,
    content: 'Hello from Nok',
    msisdns: [SAMPLE_NUMBER],
  });
  for (const line of [
    '',
    `Demo account ${created.accountId} created with ${config.demoCredits} credits and the approved sender ${DEMO_SENDER}.`,
    'Its API key (shown only this once; it is stored hashed):',
    '',
    `  ${created.key}`,
    '',
    'Send an SMS:',
    '',
    `  curl -X POST ${base}/api/v2/sms/send \\`,
    `    -H 'x-api-key: ${created.key}' \\`,
    `    -H 'content-type: application/json' \\`,
    `    -d '${body}'`,
    '',
    `API documentation: ${base}/docs`,
    '',
    `The console: ${base}/console/ — sign in as the demo account's owner:`,
    '',
    `  email:    ${DEMO_OWNER_EMAIL}`,
    `  password: ${ownerPassword}`,
    '',
  ]) {
    print(line);
  }
}
