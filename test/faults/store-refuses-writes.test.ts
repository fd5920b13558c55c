import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { LifecycleEvents } from '../../src/domain/lifecycle-events.js';
import { startBackgroundJobs } from '../../src/scheduler/background-jobs.js';
import { systemTimers } from '../../src/domain/timers.js';
import { waitUntil } from '../interop/wait-until.js';
import { testEngines, type TestEngine } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createPgCluster, type PgCluster } from '../support/pg-cluster.js';
import {
  capturingLogger,
  clusterEngine,
  moneyOf,
  msisdns,
  recipientRows,
} from './fault-fixtures.js';
import { loadConfig } from '../../src/config.js';

/**
 * The store refuses writes for a while: SQLite's file cannot grow (SQLITE_FULL, made real with
 * `PRAGMA max_page_count`), or the PostgreSQL server is down. Meanwhile the API answers 503
 * STORE_UNAVAILABLE with Retry-After and changes nothing; the scheduler backs off; once the
 * store is back everything resumes by itself, no accepted recipient is lost and nothing is
 * charged twice.
 */
interface Fault {
  readonly name: string;
  readonly engine: () => TestEngine;
  /** Whether reads still work during the fault (a full disk) or not (a server down). */
  readonly readsWork: boolean;
  begin(h: Harness): Promise<void>;
  end(h: Harness): Promise<void>;
}

let cluster: PgCluster | undefined;
const sqliteEngine = testEngines().find((e) => e.name === 'sqlite')!;

const faults: Fault[] = [
  {
    name: 'SQLite disk full',
    engine: () => sqliteEngine,
    readsWork: true,
    async begin(h) {
      // The file may not grow past its present size: the next write needing a page fails.
      const db = h.db.database.db;
      const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
      await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(db);
    },
    async end(h) {
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(h.db.database.db);
    },
  },
  {
    name: 'PostgreSQL down',
    engine: () => clusterEngine(cluster!),
    readsWork: false,
    begin: () => cluster!.stop(),
    end: () => cluster!.start(),
  },
];

describe('the store refusing writes', () => {
  before(async () => {
    cluster = await createPgCluster();
  });
  after(() => cluster?.destroy());

  for (const fault of faults) {
    it(
      `answers 503 while ${fault.name}, recovers by itself, loses no recipient and charges once`,
      { timeout: 60_000 },
      async () => {
        const h = await createHarness(fault.engine());
        const { logger, lines } = capturingLogger();
        let jobs: ReturnType<typeof startBackgroundJobs> | undefined;
        try {
          const c = await h.customer({ credits: 100_000 });
          const send = (count: number, from: number, key: string) =>
            h.request({
              method: 'POST',
              url: '/api/v2/sms/send',
              key: c.key,
              headers: { 'idempotency-key': key },
              payload: { sender: c.sender, content: 'Fault drill', msisdns: msisdns(count, from) },
            });

          // Accepted before the fault; its recipients are written by the scheduler later.
          const accepted = await send(2000, 0, 'before-the-fault');
          assert.equal(accepted.statusCode, 200, accepted.body);
          const acceptedId = (await h.store.findMessageByUuid(accepted.json().uuid))!.id;

          await fault.begin(h);
          jobs = startBackgroundJobs({
            store: h.store,
            engine: h.db.database.engine,
            clock: h.clock,
            timers: systemTimers,
            events: new LifecycleEvents(),
            logger,
            intervalMs: 40,
            chunkSize: 500,
            purge: { sessionLimits: loadConfig({}).sessionLimits },
          });

          const refused = await send(5000, 10_000, 'during-the-fault');
          assert.equal(refused.statusCode, 503, refused.body);
          assert.equal(refused.headers['retry-after'], '5');
          assert.equal(refused.json().code, 'STORE_UNAVAILABLE');
          assert.match(refused.json().error, /try again/);

          const read = await h.request({
            method: 'GET',
            url: `/api/v2/sms/${accepted.json().uuid}`,
            key: c.key,
          });
          if (fault.readsWork) assert.equal(read.statusCode, 200, read.body);
          else assert.deepEqual([read.statusCode, read.json().code], [503, 'STORE_UNAVAILABLE']);

          // The scheduler fails, says so, and tries again later and later: not a spin.
          const failures = () =>
            lines().filter((line) => String(line.msg).startsWith('background step stopped'));
          await waitUntil(
            () => failures().length >= 3,
            10_000,
            () => `${failures().length}`,
          );
          const delays = failures().map((line) => Number(line.retryInMs));
          assert.ok(delays[2]! > delays[0]!, `backs off: ${delays.join(', ')}`);
          assert.equal(failures()[0]!.level, 50, 'the first failure is an error');
          assert.equal(failures()[1]!.level, 40, 'its repeats are warnings');

          await fault.end(h);

          // By itself: the scheduler writes every recipient of the accepted send, once.
          await waitUntil(
            async () => (await recipientRows(h, acceptedId)).count === 2000,
            15_000,
            () => 'recipients of the accepted send not written',
          );
          assert.deepEqual(await recipientRows(h, acceptedId), { count: 2000, distinct: 2000 });
          await waitUntil(
            () => lines().some((line) => line.msg === 'background step succeeded again'),
            10_000,
            () => 'the scheduler did not say it works again',
          );

          // The refused send, sent again with its key, is accepted once; a replay charges nothing.
          const again = await send(5000, 10_000, 'during-the-fault');
          assert.equal(again.statusCode, 200, again.body);
          const replay = await send(5000, 10_000, 'during-the-fault');
          assert.equal(replay.json().uuid, again.json().uuid);

          const money = await moneyOf(h, c.account.id);
          assert.equal(money.balance, 100_000 - 2000 - 5000);
          assert.deepEqual(
            money.rows.map((row) => [row.reason, Number(row.delta)]),
            [
              ['top-up', 100_000],
              ['send', -2000],
              ['send', -5000],
            ],
          );
        } finally {
          await jobs?.stop();
          await fault.end(h).catch(() => undefined);
          await h.close();
        }
      },
    );
  }
});
