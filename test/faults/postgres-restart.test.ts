import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { startRuntime, type Runtime } from '../../src/main.js';
import { eventually } from '../support/delivery-rig.js';
import { whenTold } from '../support/lifecycle-waits.js';
import { createPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { fromLedger } from '../../src/storage/from-ledger.js';
import { contractInject } from '../support/served-contract.js';
import { msisdns } from './fault-fixtures.js';

/**
 * Nok (API, scheduler, dispatcher and the built-in SMSC in one process) on a PostgreSQL cluster
 * of the test's own, whose server is restarted while sends are under way and while a send is
 * being delivered. Nok must not crash, must answer 503 meanwhile, and afterwards hold every
 * accepted recipient once, charged once.
 */
/** The most parts the dispatcher holds in flight at once, as NOK_DISPATCH_MAX_IN_FLIGHT says. */
const MAX_IN_FLIGHT = 150;

describe('PostgreSQL restarted under Nok', () => {
  let cluster: PgCluster;
  let runtime: Runtime;
  let inject: ReturnType<typeof contractInject>;
  let key: string;
  let accountId: number;
  const sender = 'Drill';
  const credits = 1_000_000;

  before(async () => {
    cluster = await createPgCluster();
    const config = loadConfig({
      NOK_DATABASE_URL: cluster.url,
      NOK_SMSC_PORT: '0',
      NOK_SMSC_OPTIONS: JSON.stringify({ receiptDelayMs: 5 }),
      NOK_SCHEDULER_INTERVAL_MS: '50',
      NOK_DISPATCH_IDLE_POLL_MS: '20',
      NOK_DISPATCH_COMMIT_RETRY_MS: '50',
      NOK_DISPATCH_RETRY_INITIAL_DELAY_MS: '50',
      NOK_DISPATCH_SWEEP_INTERVAL_MS: '100',
      NOK_DISPATCH_DRAIN_MS: '500',
      NOK_DISPATCH_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
    });
    runtime = await startRuntime(
      config,
      { api: true, scheduler: true, dispatcher: true, smsc: true },
      { logger: pino({ level: 'silent' }), listen: false },
    );
    inject = contractInject(runtime.app!);
    const { store } = runtime;
    const account = await createAccount(store, {
      name: 'Drill',
      credits,
      nowMs: Date.now(),
      actor: SYSTEM_ACTOR,
    });
    accountId = account.id;
    await store.createSender({ accountId, name: sender, status: 'approved', nowMs: Date.now() });
    const generated = generateApiKey();
    await store.createApiKey({
      accountId,
      name: 'drill',
      prefix: generated.prefix,
      secretHash: generated.secretHash,
      scopes: ['*'],
      nowMs: Date.now(),
    });
    key = generated.key;
  });
  after(async () => {
    await runtime?.stop();
    await cluster?.destroy();
  });

  const send = (idempotencyKey: string, numbers: string[], scheduledTime?: string) =>
    inject({
      method: 'POST',
      url: '/api/v2/sms/send',
      headers: { 'x-api-key': key, 'idempotency-key': idempotencyKey },
      payload: { sender, content: 'Drill', msisdns: numbers, scheduledTime },
    });
  // The mid-send drill's messages are scheduled a day ahead: held, not delivered, so they do
  // not keep the dispatcher busy in the mid-delivery drill.
  const tomorrowIso = new Date(Date.now() + 86_400_000).toISOString();
  const tomorrow = () => tomorrowIso;

  async function summaryOf(uuid: string): Promise<Record<string, number>> {
    const response = await inject({
      method: 'GET',
      url: `/api/v2/sms/${uuid}/recipients?limit=1`,
      headers: { 'x-api-key': key },
    });
    assert.equal(response.statusCode, 200, response.body);
    const summary = response.json().summary as { status: string; count: number }[];
    return Object.fromEntries(summary.map((s) => [s.status, s.count]));
  }

  async function money() {
    const db = runtime.database.db;
    const account = await runtime.store.findAccount(accountId);
    const rows = await fromLedger(db)
      .select(['delta', 'message_id'])
      .where('account_id', '=', accountId)
      .execute();
    return { balance: account!.balance, rows };
  }

  it('keeps each send a client was told of, once, charged once, across a restart mid-send', async () => {
    const before = await money();
    // Three clients send one after another, each send 3,000 recipients under its own
    // Idempotency-Key, while the server stops and starts again under them.
    const outcomes = new Map<string, number[]>();
    let restarting = true;
    const client = async (lane: number) => {
      for (let i = 0; restarting || i < 3; i++) {
        const idempotencyKey = `lane-${lane}-send-${i}`;
        const response = await send(
          idempotencyKey,
          msisdns(3000, lane * 100_000 + i * 3000),
          tomorrow(),
        );
        outcomes.set(idempotencyKey, [
          ...(outcomes.get(idempotencyKey) ?? []),
          response.statusCode,
        ]);
        if (response.statusCode !== 200) {
          assert.equal(response.statusCode, 503, response.body);
          assert.equal(response.json().code, 'STORE_UNAVAILABLE');
        }
      }
    };
    const lanes = [0, 1, 2].map(client);
    await eventually(async () => outcomes.size >= 3, 20_000, 'sends before the restart');
    await cluster.stop();
    await eventually(
      async () => [...outcomes.values()].some((codes) => codes.includes(503)),
      10_000,
      'a send refused while the server is down',
    );
    await cluster.start();
    restarting = false;
    await Promise.all(lanes);

    // Every send refused is sent again with its key: each is then kept, once.
    const uuids = new Map<string, string>();
    for (const idempotencyKey of outcomes.keys()) {
      const lane = Number(idempotencyKey.split('-')[1]);
      const i = Number(idempotencyKey.split('-')[3]);
      const response = await send(
        idempotencyKey,
        msisdns(3000, lane * 100_000 + i * 3000),
        tomorrow(),
      );
      assert.equal(response.statusCode, 200, response.body);
      uuids.set(idempotencyKey, response.json().uuid);
    }
    const after = await money();
    const newRows = after.rows.slice(before.rows.length);
    assert.equal(newRows.length, outcomes.size, 'one ledger row per send');
    assert.equal(after.balance, before.balance - 3000 * outcomes.size, 'each send charged once');
    assert.equal(
      after.rows.reduce((sum, row) => sum + Number(row.delta), 0),
      after.balance,
      'balance = sum of the ledger',
    );
    const messages = await runtime.database.db
      .selectFrom('messages')
      .select(['uuid', 'recipient_total'])
      .where('account_id', '=', accountId)
      .execute();
    for (const uuid of uuids.values()) {
      const message = messages.find((m) => m.uuid === uuid);
      assert.equal(Number(message?.recipient_total), 3000, `message ${uuid} kept whole`);
    }
    assert.equal(new Set(uuids.values()).size, outcomes.size, 'one message per key');
  });

  it('delivers every recipient of a send once the server is back after a restart mid-delivery', async (t) => {
    const smsc = runtime.smsc!;
    const acceptedBefore = smsc.stats.partsAccepted;
    const count = 3000;
    const response = await send('mid-delivery', msisdns(count, 900_000));
    assert.equal(response.statusCode, 200, response.body);
    const { uuid } = response.json();

    // Stopped inside a chunk (1,000 recipients by default), while parts are in flight.
    await eventually(
      async () => smsc.stats.partsAccepted - acceptedBefore >= 1_200,
      20_000,
      'part of the second chunk submitted',
    );
    const inFlightAtStop = runtime.dispatcher!.stats().partsInFlight;
    await cluster.stop();
    const acceptedAtStop = smsc.stats.partsAccepted;
    // Meanwhile the API says the store is down, and the client may come back.
    const whileDown = await inject({
      method: 'GET',
      url: `/api/v2/sms/${uuid}`,
      headers: { 'x-api-key': key },
    });
    assert.equal(whileDown.statusCode, 503, whileDown.body);
    assert.equal(whileDown.json().code, 'STORE_UNAVAILABLE');
    assert.ok(Number(whileDown.headers['retry-after']) > 0, 'Retry-After');
    await cluster.start();

    await whenTold(
      runtime.events,
      async () => (await summaryOf(uuid)).success === count,
      'every recipient delivered',
      25_000,
    );
    const summary = await summaryOf(uuid);
    assert.equal(summary.pending, 0);
    const rows = await runtime.database.db
      .selectFrom('recipients')
      .innerJoin('messages', 'messages.id', 'recipients.message_id')
      .select(['recipients.seq'])
      .where('messages.uuid', '=', uuid)
      .execute();
    assert.equal(new Set(rows.map((r) => r.seq)).size, count, 'every recipient once');
    // Parts submitted again: at most those in flight when the store went away, whose outcomes
    // may not have been stored, and never more than the dispatcher holds in flight at once.
    const extra = smsc.stats.partsAccepted - acceptedBefore - count;
    t.diagnostic(
      `${extra} parts sent again; at the stop ${acceptedAtStop - acceptedBefore} accepted and ${inFlightAtStop} in flight`,
    );
    assert.ok(inFlightAtStop <= MAX_IN_FLIGHT, `${inFlightAtStop} in flight`);
    assert.ok(extra >= 0 && extra <= MAX_IN_FLIGHT, `${extra} parts sent twice`);
    assert.ok(acceptedAtStop - acceptedBefore < count, 'the restart came mid-delivery');
  });
});
