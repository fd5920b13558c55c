import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startRuntime, type Runtime } from '../../src/main.js';
import { databaseUrlFor } from '../cli/nok-process.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

const silent = pino({ level: 'silent' });

for (const engine of testEngines()) {
  describe(`the operator listener (${engine.name})`, () => {
    let db: TestDatabase;
    const runtimes: Runtime[] = [];
    before(async () => {
      db = await engine.create();
    });
    after(async () => {
      for (const runtime of runtimes) await runtime.stop();
      await db.drop();
    });

    async function runtimeWith(
      env: Record<string, string>,
      roles = { api: true, scheduler: false },
    ) {
      const config = loadConfig({ NOK_DATABASE_URL: databaseUrlFor(db), ...env });
      const runtime = await startRuntime(config, roles, { logger: silent, listen: false });
      runtimes.push(runtime);
      return runtime;
    }
    const get = async (app: Runtime['ops'], url: string) => {
      const response = await app.inject({ method: 'GET', url });
      return {
        status: response.statusCode,
        type: response.headers['content-type'],
        body: response.body,
      };
    };

    it('serves /health, /metrics and /status, and the API serves only /health of them', async () => {
      const runtime = await runtimeWith({});
      assert.equal((await get(runtime.ops, '/health')).body, '{"status":"ok"}');
      const metrics = await get(runtime.ops, '/metrics');
      assert.equal(metrics.status, 200);
      assert.match(String(metrics.type), /^text\/plain/);
      assert.match(metrics.body, /^# HELP nok_accepted_recipients_total /m);
      const status = await get(runtime.ops, '/status');
      assert.equal(status.status, 200);
      assert.deepEqual(JSON.parse(status.body).roles, { api: true, scheduler: false });

      assert.equal((await get(runtime.app!, '/health')).status, 200);
      assert.equal((await get(runtime.app!, '/metrics')).status, 404);
      assert.equal((await get(runtime.app!, '/status')).status, 404);
    });

    it('leaves /metrics out with NOK_METRICS=off, and keeps /health and /status', async () => {
      const runtime = await runtimeWith({ NOK_METRICS: 'off' });
      assert.equal(runtime.metrics, undefined);
      assert.equal((await get(runtime.ops, '/metrics')).status, 404);
      assert.equal((await get(runtime.ops, '/status')).status, 200);
      assert.equal((await get(runtime.ops, '/health')).status, 200);
    });

    it('runs in a process without the API too', async () => {
      const runtime = await runtimeWith({}, { api: false, scheduler: true });
      assert.equal(runtime.app, undefined);
      assert.equal((await get(runtime.ops, '/status')).status, 200);
    });
  });
}
