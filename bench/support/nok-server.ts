// The server side of a bench: a real Nok runtime (API + scheduler) in a child process of its own,
// so that its peak RSS (VmHWM) is the server's alone and not the load generator's. Started by
// `startNokServer` (nok-process.ts) with `fork`; talks to its parent over the IPC channel:
//
//   parent → { type: 'seed', credits, blocked }   child → { type: 'seeded', key, sender, accountId }
//   parent → { type: 'webhook', accountId, url, enabled }   child → { type: 'webhook-set' }
//            (the account's one endpoint: made at the first, enabled or disabled after)
//   parent → { type: 'stop' }                      child stops the runtime and exits
//
// The settings come from the environment like `nok start`: NOK_DATABASE_URL, NOK_PORT, ….
import { loadConfig } from '../../src/config.js';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { BENCH_OWNER } from './bench-owner.js';
import { startRuntime, type Runtime } from '../../src/main.js';
import {
  createWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../src/domain/webhooks/manage-endpoints.js';

export type ParentMessage =
  | { readonly type: 'seed'; readonly credits: number; readonly blocked: readonly string[] }
  | {
      readonly type: 'webhook';
      readonly accountId: number;
      readonly url: string;
      readonly enabled: boolean;
    }
  | { readonly type: 'stop' };

export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string; readonly opsUrl: string }
  | {
      readonly type: 'seeded';
      readonly key: string;
      readonly sender: string;
      readonly accountId: number;
    }
  | { readonly type: 'webhook-set' }
  | { readonly type: 'failed'; readonly error: string };

function send(message: ChildMessage): void {
  process.send?.(message);
}

/**
 * An account with credits, an approved sender, a `*` key, `blocked` on its blocklist, and an
 * owner who signs in to the console as `BENCH_OWNER`.
 */
async function seed(runtime: Runtime, credits: number, blocked: readonly string[]) {
  const { store } = runtime;
  const nowMs = Date.now();
  const account = await createAccount(store, {
    name: 'Bench account',
    credits,
    nowMs,
    actor: SYSTEM_ACTOR,
  });
  const sender = 'NOKBENCH';
  await store.createSender({ accountId: account.id, name: sender, status: 'approved', nowMs });
  const generated = generateApiKey();
  await store.createApiKey({
    accountId: account.id,
    name: 'bench',
    prefix: generated.prefix,
    secretHash: generated.secretHash,
    scopes: ['*'],
    nowMs,
  });
  if (blocked.length > 0) await store.addToBlocklist(account.id, blocked, nowMs);
  await store.createUser({
    email: BENCH_OWNER.email,
    name: 'Bench owner',
    role: 'owner',
    accountId: account.id,
    passwordHash: await hashPassword(BENCH_OWNER.password),
    nowMs,
  });
  return { key: generated.key, sender, accountId: account.id };
}

/** The account's one webhook endpoint to `url`, made at the first call, then enabled or not. */
async function setWebhook(runtime: Runtime, accountId: number, url: string, enabled: boolean) {
  const nowMs = Date.now();
  const [endpoint] = await runtime.store.listWebhookEndpoints(accountId);
  if (!endpoint) {
    await createWebhookEndpoint(runtime.store, { accountId, url, enabled, nowMs });
  } else {
    await updateWebhookEndpoint(runtime.store, { accountId }, endpoint.uuid, { enabled }, nowMs);
  }
}

async function main(): Promise<void> {
  // NOK_BENCH_DISPATCHER=1 adds the dispatcher role (delivering to NOK_CARRIERS_FILE);
  // NOK_BENCH_ROLES (api,scheduler,dispatcher,webhooks) names the roles instead, for benches
  // that run them as processes of their own.
  const dispatcher = process.env.NOK_BENCH_DISPATCHER === '1';
  const named = process.env.NOK_BENCH_ROLES?.split(',');
  const runtime = await startRuntime(
    loadConfig(process.env),
    named
      ? {
          api: named.includes('api'),
          scheduler: named.includes('scheduler'),
          dispatcher: named.includes('dispatcher'),
          webhooks: named.includes('webhooks'),
        }
      : { api: true, scheduler: true, dispatcher, webhooks: dispatcher },
  );
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await runtime.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void stop(0);
    else if (message.type === 'webhook') {
      setWebhook(runtime, message.accountId, message.url, message.enabled).then(
        () => send({ type: 'webhook-set' }),
        (error: unknown) => send({ type: 'failed', error: String(error) }),
      );
    } else if (message.type === 'seed') {
      seed(runtime, message.credits, message.blocked).then(
        (seeded) => send({ type: 'seeded', ...seeded }),
        (error: unknown) => send({ type: 'failed', error: String(error) }),
      );
    }
  });
  // The parent died without saying stop: do not outlive it.
  process.on('disconnect', () => void stop(1));
  send({ type: 'ready', url: runtime.url ?? '', opsUrl: runtime.opsUrl! });
}

main().catch((error: unknown) => {
  send({
    type: 'failed',
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  process.exit(1);
});
