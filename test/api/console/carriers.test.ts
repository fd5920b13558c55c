import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { startRuntime, type Runtime } from '../../../src/main.js';
import { hashPassword } from '../../../src/domain/users/passwords.js';
import { startSession } from '../../../src/domain/users/sessions.js';
import { databaseUrlFor } from '../../cli/nok-process.js';
import { waitUntil } from '../../interop/wait-until.js';
import { testEngines, type TestDatabase } from '../../support/engines.js';

const silent = pino({ level: 'silent' });

interface StatusView {
  carriers: { name: string; bindsUp: number; bindsWanted: number }[];
  dispatcher: { partsInFlight: number } | null;
  queueDepth: number;
}

for (const engine of testEngines()) {
  describe(`console carriers page (${engine.name})`, () => {
    let db: TestDatabase;
    let runtime: Runtime;
    let cookie: string;
    before(async () => {
      db = await engine.create();
      const config = loadConfig({
        NOK_DATABASE_URL: databaseUrlFor(db),
        NOK_SMSC_PORT: '0',
        NOK_SMSC_OPTIONS: '{"preset":"happy"}',
      });
      runtime = await startRuntime(
        config,
        { api: true, scheduler: false, dispatcher: true, smsc: true },
        { logger: silent, listen: false },
      );
      const admin = await runtime.store.createUser({
        email: 'ops@example.test',
        name: 'Ops',
        role: 'admin',
        accountId: null,
        passwordHash: await hashPassword('not used here at all'),
        nowMs: Date.now(),
      });
      const { id } = await startSession(runtime.store, {
        userId: admin.id,
        ip: '127.0.0.1',
        nowMs: Date.now(),
      });
      cookie = `nok_session=${id}`;
    });
    after(async () => {
      await runtime.stop();
      await db.drop();
    });

    const opsStatus = async () =>
      (await runtime.ops.inject({ method: 'GET', url: '/status' })).json() as StatusView;

    it('shows what /status shows, read in process from the same source', async () => {
      await waitUntil(
        async () => (await opsStatus()).carriers.every((c) => c.bindsUp === c.bindsWanted),
        10_000,
        () => 'the built-in SMSC binds did not come up',
      );
      const response = await runtime.app!.inject({
        method: 'GET',
        url: '/console/api/admin/carriers',
        headers: { cookie },
      });
      assert.equal(response.statusCode, 200, response.body);
      const consoleView = response.json() as StatusView & { checkedAt: string };
      const status = await opsStatus();
      assert.deepEqual(consoleView.carriers, status.carriers);
      assert.deepEqual(consoleView.dispatcher, status.dispatcher);
      assert.equal(consoleView.queueDepth, status.queueDepth);
      assert.deepEqual(
        consoleView.carriers.map((c) => [c.name, c.bindsUp]),
        [['builtin-smsc', 2]],
      );
      assert.ok(!Number.isNaN(Date.parse(consoleView.checkedAt)));
    });

    it('refuses it without an admin session', async () => {
      const response = await runtime.app!.inject({
        method: 'GET',
        url: '/console/api/admin/carriers',
      });
      assert.equal(response.statusCode, 401, response.body);
    });
  });
}
