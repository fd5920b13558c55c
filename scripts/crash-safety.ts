// Crash safety of delivery, measured: a dispatcher process is killed with SIGKILL ten times
// while it delivers one send, at points spread over the delivery, and restarted each time.
// Prints how many recipients ended final (none may be lost), how many parts the SMSC accepted
// more than once (bounded by the parts in flight at each kill), and whether the credit ledger
// still balances. The killed process also delivers the account's webhooks to a receiver here:
// every recipient's final status must reach it (with the status the API shows) and the message's
// completion too; the events it received more than once (a kill during a request) are counted.
//
//   node --import tsx scripts/crash-safety.ts [--numbers=100000] [--kills=10] [--engine=sqlite|postgres]
//
// The dispatcher is dist/src/cli/nok.js when `npm run build:server` built it from src/ as it is
// now, else src/cli/nok.ts through tsx. PostgreSQL: NOK_TEST_PG_URL (a schema of its own is made and dropped). Everything listens on
// 127.0.0.1; every child is killed by pid before the script exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { generateApiKey } from '../src/domain/accounts/api-key.js';
import { createAccount } from '../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../src/domain/audit/audit-actor.js';
import { startRuntime } from '../src/main.js';
import { startSmsc } from '../src/smsc/start-smsc.js';
import { LIMITS } from '../src/domain/limits.js';
import { createWebhookEndpoint } from '../src/domain/webhooks/manage-endpoints.js';
import { startWebhookReceiver } from '../test/support/webhook-receiver.js';
import { BUILT_NOK, serverBuildProblem } from './server-build.mjs';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const NUMBERS = Number(arg('numbers', '100000'));
const KILLS = Number(arg('kills', '10'));
const ENGINE = arg('engine', 'sqlite');
const MAX_IN_FLIGHT = 200;

const dir = mkdtempSync(join(tmpdir(), 'nok-crash-'));
let databaseUrl = join(dir, 'nok.db');
let schema: string | undefined;
if (ENGINE === 'postgres') {
  const url = process.env.NOK_TEST_PG_URL;
  if (!url) throw new Error('--engine=postgres needs NOK_TEST_PG_URL');
  schema = `nok_crash_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
}

// A patient carrier: it sends a receipt again, however many binds die before acknowledging it.
// With the simulator's default of 3 attempts, a receipt sent to three binds in a row that were
// each killed before their deliver_sm_resp is dropped, and its recipient waits out the receipt
// window (48 h) in `pending`: the carrier's loss, not Nok's, and not what this script measures.
const smsc = await startSmsc({
  receiptDelayMs: { min: 0, max: 200 },
  receiptMaxAttempts: 1_000,
  recordSubmits: true,
});
const carriersFile = join(dir, 'carriers.json');
writeFileSync(
  carriersFile,
  JSON.stringify({
    carriers: [
      {
        name: 'sim',
        host: smsc.host,
        port: smsc.port,
        systemId: 'nok',
        password: 'nok',
        binds: 2,
        windowSize: 100,
        submitsPerSecond: 50_000,
        reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
      },
    ],
  }),
);
const env = {
  ...process.env,
  NOK_DATABASE_URL: databaseUrl,
  NOK_LOG_LEVEL: 'warn',
  NOK_HOST: '127.0.0.1',
  NOK_PORT: '0',
  // The API process and each dispatcher: each its own free port for the operator endpoints.
  NOK_OPS_PORT: '0',
  NOK_CARRIERS_FILE: carriersFile,
  NOK_DISPATCH_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
  // A killed dispatcher's chunks wait out their lease before another takes them: 5 s, not the
  // default minute, so the script runs in seconds; what it measures does not depend on it.
  NOK_DISPATCH_LEASE_MS: '5000',
  NOK_RATE_LIMIT_REQUESTS: '1000000',
  // The receiver is on 127.0.0.1; a request the kill cuts short is leased for 2 × 2 s + 5 s.
  NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  NOK_WEBHOOK_TIMEOUT_MS: '2000',
};

// The API and the scheduler run here; the dispatcher is the child that gets killed.
const runtime = await startRuntime(loadConfig(env), { api: true, scheduler: true });
const { store } = runtime;
const now = Date.now();
const account = await createAccount(store, {
  name: 'crash',
  credits: 10 * NUMBERS,
  nowMs: now,
  actor: SYSTEM_ACTOR,
});
await store.createSender({ accountId: account.id, name: 'CRASH', status: 'approved', nowMs: now });
const key = generateApiKey();
await store.createApiKey({
  accountId: account.id,
  name: 'crash',
  prefix: key.prefix,
  secretHash: key.secretHash,
  scopes: ['*'],
  nowMs: now,
});
const receiver = await startWebhookReceiver();
await createWebhookEndpoint(store, { accountId: account.id, url: receiver.url, nowMs: now });
const msisdns = Array.from({ length: NUMBERS }, (_, i) => `0${800_000_000 + i}`);
const response = await fetch(`${runtime.url}/api/v2/sms/send`, {
  method: 'POST',
  headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
  body: JSON.stringify({ sender: 'CRASH', content: 'crash test', msisdns }),
});
const { uuid } = (await response.json()) as { uuid: string };
console.log(
  `sent ${NUMBERS} numbers (${uuid}) on ${ENGINE}; killing the dispatcher ${KILLS} times`,
);

// The dispatcher is the built `nok` when dist/src is built from src/ as it is now
// (npm run build:server), which starts in a fraction of the time each restart; else
// src/cli/nok.ts through tsx. A stale build is never run.
const builtProblem = serverBuildProblem();
const nok =
  builtProblem === null
    ? ['--enable-source-maps', BUILT_NOK]
    : ['--import', 'tsx', 'src/cli/nok.ts'];
console.log(
  `the dispatcher runs ${builtProblem === null ? BUILT_NOK : `from source (${builtProblem})`}`,
);

let child: ChildProcess | undefined;
const startDispatcher = () => {
  child = spawn(process.execPath, [...nok, 'dispatcher'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
};
const kill = () =>
  new Promise<void>((resolve) => {
    const c = child!;
    c.once('exit', () => resolve());
    process.kill(c.pid!, 'SIGKILL');
  });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function recipientCounts() {
  const page = await fetch(`${runtime.url}/api/v2/sms/${uuid}/recipients?limit=1`, {
    headers: { 'x-api-key': key.key },
  });
  const body = (await page.json()) as { summary: { status: string; count: number }[] };
  return Object.fromEntries(body.summary.map((s) => [s.status, s.count]));
}

/**
 * Where the k-th kill falls, in parts the SMSC has accepted: spread evenly over the send, each
 * moved by up to a quarter of a step either way. A kill is timed by the delivery's progress, not
 * by the clock, so on a machine where a dispatcher takes seconds to start it still falls
 * mid-delivery, never before the first submit or after the last.
 */
const step = NUMBERS / (KILLS + 1);
const killPoint = (k: number) => Math.round(step * (k + 1 + (Math.random() - 0.5) / 2));
const PROGRESS_WAIT_MS = 120_000;

async function acceptedReaches(target: number): Promise<void> {
  const deadline = Date.now() + PROGRESS_WAIT_MS;
  while (smsc.stats.partsAccepted < target) {
    if (Date.now() > deadline) {
      throw new Error(
        `the SMSC accepted ${smsc.stats.partsAccepted} parts, not ${target}, within ${PROGRESS_WAIT_MS / 1000} s`,
      );
    }
    await pause(2);
  }
}

const started = Date.now();
startDispatcher();
for (let k = 0; k < KILLS; k++) {
  await acceptedReaches(killPoint(k));
  const accepted = smsc.stats.partsAccepted;
  await kill();
  console.log(`kill ${k + 1}: ${accepted} parts accepted by the SMSC so far`);
  startDispatcher();
}
const deadline = Date.now() + 300_000;
let counts = await recipientCounts();
while ((counts.pending ?? 0) > 0 && Date.now() < deadline) {
  await pause(500);
  counts = await recipientCounts();
}
const seconds = (Date.now() - started) / 1000;

// Every final status pushed: the last process delivers what the killed ones left.
interface Pushed {
  type: string;
  data: { uuid?: string; recipients?: { seq: number; status: string }[] };
}
const pushed = () => receiver.received.map((r) => JSON.parse(r.body) as Pushed);
const pushedFinals = () => {
  const statuses = new Map<number, string[]>();
  for (const event of pushed()) {
    if (event.type !== 'recipients.final') continue;
    for (const recipient of event.data.recipients ?? []) {
      statuses.set(recipient.seq, [...(statuses.get(recipient.seq) ?? []), recipient.status]);
    }
  }
  return statuses;
};
const webhookDeadline = Date.now() + 120_000;
while (
  (pushedFinals().size < NUMBERS || !pushed().some((e) => e.type === 'message.completed')) &&
  Date.now() < webhookDeadline
) {
  await pause(250);
}
await kill();
const finals = pushedFinals();
const statusOf = new Map<number, string>();
for (let after = 0; ;) {
  const page = (await (
    await fetch(
      `${runtime.url}/api/v2/sms/${uuid}/recipients?after=${after}&limit=${LIMITS.recipientPageSize.max}`,
      {
        headers: { 'x-api-key': key.key },
      },
    )
  ).json()) as { data: { seq: number; status: string }[]; hasMore: boolean; nextCursor: number };
  for (const row of page.data) statusOf.set(row.seq, row.status);
  if (!page.hasMore) break;
  after = page.nextCursor;
}
const wrongStatus = [...finals].filter(([seq, s]) => s.some((x) => x !== statusOf.get(seq))).length;
const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
const repeatedIds = ids.length - new Set(ids).size;
const repeatedRecipients = [...finals.values()].reduce((n, s) => n + s.length - 1, 0);
const completedEvents = pushed().filter((e) => e.type === 'message.completed').length;

const destinations = new Set(smsc.stats.submits.map((s) => s.destinationAddr));
const duplicates = smsc.stats.partsAccepted - destinations.size;
const balance = (await store.findAccount(account.id))!.balance;
const ledger = await store.ledgerSum(account.id);
const final = Object.entries(counts)
  .filter(([status]) => status !== 'pending')
  .reduce((sum, [, n]) => sum + n, 0);
console.log('');
console.log(`recipients                ${NUMBERS}`);
console.log(`final                     ${final}  ${JSON.stringify(counts)}`);
console.log(`lost (still pending)      ${counts.pending ?? 0}`);
console.log(`never submitted           ${NUMBERS - destinations.size}`);
console.log(`parts accepted by SMSC    ${smsc.stats.partsAccepted}`);
console.log(
  `duplicates submitted      ${duplicates}  (bound: ${KILLS} kills × ${MAX_IN_FLIGHT} in flight = ${KILLS * MAX_IN_FLIGHT})`,
);
console.log(
  `ledger sum = balance      ${ledger === balance ? 'yes' : 'NO'} (${ledger} / ${balance})`,
);
console.log(
  `receipts resent by SMSC   ${smsc.stats.receiptsResent}, dropped ${smsc.stats.receiptsDropped}`,
);
console.log(`seconds                   ${seconds.toFixed(1)}`);
console.log(
  `webhooks: final statuses  ${finals.size} of ${NUMBERS} received, ${wrongStatus} not as the API shows`,
);
console.log(
  `webhooks: duplicates      ${repeatedIds} events (${repeatedRecipients} recipients) received again after a kill`,
);
console.log(`webhooks: completed      ${completedEvents} message.completed event(s)`);

await runtime.stop();
await smsc.close();
await receiver.close();
rmSync(dir, { recursive: true, force: true });
if (schema) {
  const admin = new pg.Client({ connectionString: process.env.NOK_TEST_PG_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
const ok =
  (counts.pending ?? 0) === 0 &&
  final === NUMBERS &&
  duplicates <= KILLS * MAX_IN_FLIGHT &&
  smsc.stats.receiptsDropped === 0 &&
  ledger === balance &&
  finals.size === NUMBERS &&
  wrongStatus === 0 &&
  completedEvents >= 1;
console.log(ok ? 'crash safety: OK' : 'crash safety: FAILED');
process.exit(ok ? 0 : 1);
