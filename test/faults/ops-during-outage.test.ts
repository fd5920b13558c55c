import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startRuntime, type Runtime } from '../../src/main.js';
import { createPgCluster, type PgCluster } from '../support/pg-cluster.js';

describe('the operator listener while PostgreSQL is down', () => {
  let cluster: PgCluster;
  let runtime: Runtime;
  before(async () => {
    cluster = await createPgCluster();
    const config = loadConfig({ NOK_DATABASE_URL: cluster.url });
    runtime = await startRuntime(
      config,
      { api: true, scheduler: true, dispatcher: true, smsc: true },
      { logger: pino({ level: 'silent' }), listen: false },
    );
  });
  after(async () => {
    await runtime?.stop();
    await cluster?.destroy();
  });

  const get = async (url: string) => {
    const response = await runtime.ops.inject({ method: 'GET', url });
    return {
      status: response.statusCode,
      body: response.json(),
      retryAfter: response.headers['retry-after'],
    };
  };

  it('answers 503 STORE_UNAVAILABLE on /status and /metrics, /health 200, and recovers by itself', async () => {
    assert.equal((await get('/status')).status, 200);
    await cluster.stop();
    for (const url of ['/status', '/metrics']) {
      const answer = await get(url);
      assert.equal(answer.status, 503, url);
      assert.equal(answer.body.code, 'STORE_UNAVAILABLE', url);
      assert.equal(answer.retryAfter, '5', url);
    }
    assert.deepEqual((await get('/health')).body, { status: 'ok' });
    await cluster.start();
    const status = await get('/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.queueDepth, 0);
  });
});
