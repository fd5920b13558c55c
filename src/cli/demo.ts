import { SYSTEM_ACTOR } from '../domain/audit/audit-actor.js';
import type { Config } from '../config.js';
import { createAccount } from '../domain/accounts/create-account.js';
import { createApiKey } from '../domain/accounts/create-api-key.js';
import { systemClock } from '../domain/clock.js';
import type { Store } from '../domain/ports.js';
import { createSender } from '../domain/senders/create-sender.js';

export const DEMO_ACCOUNT_NAME = 'Demo';
export const DEMO_SENDER = 'NOKDEMO';
const SAMPLE_NUMBER = '0812345678';

/**
 * On an empty store (no account yet), creates a demo account with `config.demoCredits` credits,
 * the approved sender NOKDEMO and a `*` key, and prints how to send with it. On any other store
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
  ]) {
    print(line);
  }
}
