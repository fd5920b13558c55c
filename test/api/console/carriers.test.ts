import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig, type Config } from '../../../src/config.js';
import { generateApiKey } from '../../../src/domain/accounts/api-key.js';
import { createAccount } from '../../../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../../../src/domain/audit/audit-actor.js';
import type { Clock } from '../../../src/domain/clock.js';
import { hashPassword } from '../../../src/domain/users/passwords.js';
import { startSession } from '../../../src/domain/users/sessions.js';
import { startRuntime, type Runtime } from '../../../src/main.js';
import { STATUS_FORGET_MS, STATUS_STALE_MS } from '../../../src/domain/delivery/status-board.js';
import { startSmsc, type RunningSmsc } from '../../../src/smsc/start-smsc.js';
import { statusBoardStore } from '../../../src/storage/status-board-store.js';
import type { CarriersStatus } from '../../../src/api/console/contract/carriers.js';
import { databaseUrlFor, spawnNok } from '../../cli/nok-process.js';
import { waitUntil } from '../../interop/wait-until.js';
import { TEST_TOTP_SECRET } from '../../support/console-session.js';
import { writeSimCarriersFile } from '../../support/carriers-file.js';
import { testEngines, type TestDatabase } from '../../support/engines.js';

const silent = pino({ level: 'silent' });
const NUMBERS = ['66810000001', '66810000002', '66810000003'];

interface StatusView {
  carriers: Record<string, unknown>[];
  dispatcher: Record<string, unknown> | null;
}

/**
 * The production layout of DESIGN §1 on one store: an api-only process and dispatcher-only
 * processes, the dispatchers binding to a simulated carrier of the test's own. Every process
 * reads one clock the test can move forward (time since a dispatcher last wrote its status).
 */
for (const engine of testEngines()) {
  describe(`the carriers page across processes (${engine.name})`, () => {
    let db: TestDatabase;
    let smsc: RunningSmsc;
    let dir: string;
    let carriersFile: string;
    let config: Config;
    let api: Runtime;
    let cookie: string;
    let aheadMs = 0;
    const clock: Clock = { now: () => Date.now() + aheadMs };
    const children = new Set<ChildProcess>();

    before(async () => {
      db = await engine.create();
      smsc = await startSmsc({ preset: 'happy' });
      dir = mkdtempSync(join(tmpdir(), 'nok-carriers-'));
      carriersFile = writeSimCarriersFile(dir, smsc, {
        binds: 2,
        submitsPerSecond: 500,
        reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      });
      config = loadConfig({
        NOK_DATABASE_URL: databaseUrlFor(db),
        NOK_CARRIERS_FILE: carriersFile,
      });
      api = await startRuntime(
        config,
        { api: true, scheduler: false },
        { logger: silent, listen: false, clock },
      );
      cookie = await adminCookie(api, clock);
      // Three recipients wait: no scheduler runs, so none is materialised nor dispatched.
      await sendThree(api, clock);
    });
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      await api?.stop();
      await smsc?.close();
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const carriersPage = async (): Promise<CarriersStatus> => {
      const response = await api.app!.inject({
        method: 'GET',
        url: '/console/api/admin/carriers',
        headers: { cookie },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as CarriersStatus;
    };
    const statusOf = async (runtime: Runtime) =>
      (await runtime.ops.inject({ method: 'GET', url: '/status' })).json() as StatusView;
    const dispatcherOnly = () =>
      startRuntime(
        config,
        { api: false, scheduler: false, dispatcher: true },
        { logger: silent, listen: false, clock },
      );

    it("shows a dispatcher process's binds, its work and the queue depth, and drops it as it stops", async () => {
      const dispatcher = await dispatcherOnly();
      try {
        let page: CarriersStatus | undefined;
        await waitUntil(
          async () => {
            page = await carriersPage();
            return page.carriers.some((c) => c.name === 'sim' && c.bindsUp === 2);
          },
          15_000,
          () => `the page showed ${JSON.stringify(page)}`,
        );
        assert.equal(page!.dispatchers.length, 1);
        const [shown] = page!.dispatchers;
        assert.match(shown!.owner, new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{6}$`));
        // Idle, so what it published is what its own /status shows now.
        const own = await statusOf(dispatcher);
        assert.deepEqual(shown!.carriers, own.carriers);
        assert.deepEqual(shown!.stats, own.dispatcher);
        assert.deepEqual(page!.carriers, [{ ...own.carriers[0], dispatchers: 1 }]);
        assert.equal(page!.queueDepth, NUMBERS.length);
        assert.deepEqual(page!.silentDispatchers, []);
        // The api process's own /status still shows that process only: no dispatcher there.
        const apiStatus = await statusOf(api);
        assert.deepEqual([apiStatus.carriers, apiStatus.dispatcher], [[], null]);
      } finally {
        await dispatcher.stop();
      }
      const page = await carriersPage();
      assert.deepEqual(
        [page.carriers, page.dispatchers, page.silentDispatchers],
        [[], [], []],
        'a dispatcher that stopped cleanly is gone at once',
      );
      assert.equal(page.queueDepth, NUMBERS.length);
    });

    it('names a killed dispatcher as silent once its status is stale, forgets it later, and the next dispatcher deletes its row', async () => {
      const child = spawnNok(db, ['dispatcher'], { NOK_CARRIERS_FILE: carriersFile });
      children.add(child);
      const isChild = (owner: string) => owner.split(':')[1] === String(child.pid);
      let page: CarriersStatus | undefined;
      await waitUntil(
        async () => {
          page = await carriersPage();
          return page.dispatchers.some((d) => isChild(d.owner) && d.carriers[0]?.bindsUp === 2);
        },
        30_000,
        () => `the page showed ${JSON.stringify(page)}`,
      );
      const owner = page!.dispatchers.find((d) => isChild(d.owner))!.owner;

      child.kill('SIGKILL');
      await once(child, 'exit');
      children.delete(child);
      const board = statusBoardStore(db.database.db);
      assert.ok(
        (await board.read(0)).some((row) => row.owner === owner),
        'a killed process leaves its row behind',
      );

      aheadMs = STATUS_STALE_MS + 1;
      page = await carriersPage();
      assert.deepEqual([page.carriers, page.dispatchers], [[], []]);
      assert.deepEqual(
        page.silentDispatchers.map((d) => d.owner),
        [owner],
      );
      assert.equal(page.staleAfterSeconds, STATUS_STALE_MS / 1000);

      aheadMs = STATUS_FORGET_MS + 1;
      page = await carriersPage();
      assert.deepEqual([page.carriers, page.dispatchers, page.silentDispatchers], [[], [], []]);

      const next = await dispatcherOnly();
      try {
        await waitUntil(
          async () => !(await board.read(0)).some((row) => row.owner === owner),
          10_000,
          () => 'the next dispatcher did not delete the silent row',
        );
      } finally {
        await next.stop();
      }
    });

    it("leaves out a status this version cannot read, and answers with the others'", async () => {
      aheadMs = 0;
      const board = statusBoardStore(db.database.db);
      const nowMs = clock.now();
      await board.publish({
        owner: 'elsewhere:1:aaaaaa',
        startedAt: nowMs,
        writtenAt: nowMs,
        status: '{"carriers":[{"name":"sim"}]}',
      });
      await board.publish({
        owner: 'elsewhere:2:bbbbbb',
        startedAt: nowMs,
        writtenAt: nowMs,
        status: 'not json',
      });
      const stats = {
        chunksHeld: 0,
        partsInFlight: 0,
        outcomesQueued: 0,
        receiptsQueued: 0,
        submitted: 5,
        receipts: 4,
      };
      const carrier = {
        name: 'sim',
        bindsUp: 1,
        bindsWanted: 2,
        receiversUp: 1,
        inFlight: 0,
        waiting: 0,
        submitsPerSecondLimit: 500,
        currentRatePerSecond: 500,
        lastError: 'connect ECONNREFUSED',
      };
      await board.publish({
        owner: 'elsewhere:3:cccccc',
        startedAt: nowMs,
        writtenAt: nowMs,
        status: JSON.stringify({ carriers: [carrier], dispatcher: stats, later: 'ignored' }),
      });
      try {
        const page = await carriersPage();
        assert.deepEqual(
          page.dispatchers.map((d) => [d.owner, d.stats, d.carriers]),
          [['elsewhere:3:cccccc', stats, [carrier]]],
        );
        assert.deepEqual(page.carriers, [{ ...carrier, dispatchers: 1 }]);
      } finally {
        for (const owner of ['elsewhere:1:aaaaaa', 'elsewhere:2:bbbbbb', 'elsewhere:3:cccccc']) {
          await board.remove(owner);
        }
      }
    });

    it('refuses it without an admin session', async () => {
      const response = await api.app!.inject({
        method: 'GET',
        url: '/console/api/admin/carriers',
      });
      assert.equal(response.statusCode, 401, response.body);
    });
  });
}

/** A signed-in platform admin's session cookie. */
async function adminCookie(runtime: Runtime, clock: Clock): Promise<string> {
  const admin = await runtime.store.createUser({
    email: 'ops@example.test',
    name: 'Ops',
    role: 'admin',
    accountId: null,
    passwordHash: await hashPassword('not used here at all'),
    nowMs: clock.now(),
  });
  // Admins must have TOTP; without it the session would be restricted to enrolling.
  await runtime.store.updateUser(
    admin.id,
    { totpSecret: TEST_TOTP_SECRET, totpEnabledAt: clock.now() },
    clock.now(),
  );
  const { id } = await startSession(runtime.store, {
    userId: admin.id,
    ip: '127.0.0.1',
    nowMs: clock.now(),
  });
  return `nok_session=${id}`;
}

/** A send of NUMBERS through /api/v2 of the api process. */
async function sendThree(runtime: Runtime, clock: Clock): Promise<void> {
  const { store } = runtime;
  const account = await createAccount(store, {
    name: 'Customer',
    credits: 100,
    nowMs: clock.now(),
    actor: SYSTEM_ACTOR,
  });
  await store.createSender({
    accountId: account.id,
    name: 'Nok',
    status: 'approved',
    nowMs: clock.now(),
  });
  const key = generateApiKey();
  await store.createApiKey({
    accountId: account.id,
    name: 'test',
    prefix: key.prefix,
    secretHash: key.secretHash,
    scopes: ['*'],
    nowMs: clock.now(),
  });
  const response = await runtime.app!.inject({
    method: 'POST',
    url: '/api/v2/sms/send',
    headers: { 'x-api-key': key.key },
    payload: { sender: 'Nok', content: 'Hello', msisdns: NUMBERS },
  });
  assert.equal(response.statusCode, 200, response.body);
}
