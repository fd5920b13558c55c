import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { buildOpsApp } from '../../src/ops/ops-routes.js';
import { capturingLogger } from '../faults/fault-fixtures.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function idOf(response: LightMyRequestResponse): string {
  const id = response.headers['x-request-id'];
  assert.equal(typeof id, 'string', `no X-Request-Id on ${response.statusCode} ${response.body}`);
  return id as string;
}

/** An error answer names its request: `requestId` beside `error` and `code`, as in the header. */
function assertNamesItsRequest(response: LightMyRequestResponse): string {
  const id = idOf(response);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], response.body);
  assert.equal(body.requestId, id);
  return id;
}

for (const engine of testEngines()) {
  describe(`request ids (${engine.name})`, () => {
    let h: Harness;
    let key: string;
    const log = capturingLogger();

    before(async () => {
      h = await createHarness(engine, { logger: log.logger });
      key = (await h.customer()).key;
      // A route that fails as a bug would, for the 500 and its log line.
      h.app.get('/request-id-test/fails', { config: { access: 'public' } }, async (request) => {
        request.log.info('about to fail');
        throw new Error('the cause of the failure');
      });
    });
    after(() => h.close());

    it('gives every answer of every route an X-Request-Id, a fresh uuid each', async () => {
      const ids = new Set<string>();
      for (const [url, withKey] of [
        ['/api/v2/sms/credit/balance', true],
        ['/api/v2/sms/credit/balance', false],
        ['/openapi.json', false],
        ['/health', false],
        ['/docs', false],
        ['/console/api/session', false],
        ['/console/', false],
        ['/no-such-route', false],
      ] as const) {
        const response = await h.app.inject({
          method: 'GET',
          url,
          headers: withKey ? { 'x-api-key': key } : {},
        });
        const id = idOf(response);
        assert.match(id, UUID, url);
        ids.add(id);
      }
      assert.equal(ids.size, 8, 'each request its own id');
    });

    it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
      for (const incoming of ['abc-123', 'f0e1d2c3.b4a5:96_87', 'x'.repeat(128)]) {
        const response = await h.app.inject({
          method: 'GET',
          url: '/api/v2/sms/credit/balance',
          headers: { 'x-api-key': key, 'x-request-id': incoming },
        });
        assert.equal(response.statusCode, 200);
        assert.equal(idOf(response), incoming);
      }
      for (const incoming of ['', 'has space', 'x'.repeat(129), 'line\u0001break', 'é']) {
        const response = await h.app.inject({
          method: 'GET',
          url: '/api/v2/sms/credit/balance',
          headers: { 'x-api-key': key, 'x-request-id': incoming },
        });
        assert.match(idOf(response), UUID, JSON.stringify(incoming));
      }
    });

    it('names the request in every error body: 400, 401, 404, 405, of the API and the console', async () => {
      const answers = await Promise.all([
        h.app.inject({
          method: 'GET',
          url: '/api/v2/sms?limit=0',
          headers: { 'x-api-key': key },
        }),
        h.app.inject({ method: 'GET', url: '/api/v2/sms/credit/balance' }),
        h.app.inject({ method: 'GET', url: '/api/v2/nothing-here' }),
        h.app.inject({ method: 'DELETE', url: '/api/v2/sms', headers: { 'x-api-key': key } }),
        h.app.inject({ method: 'GET', url: '/console/api/profile' }),
        h.app.inject({ method: 'GET', url: '/console/api/no-such-thing' }),
        h.app.inject({ method: 'GET', url: '/api/v2/sms/%zz' }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        [400, 401, 404, 405, 401, 404, 400],
      );
      for (const response of answers) assertNamesItsRequest(response);
    });

    it('answers a 500 with the id of the log lines that have its cause', async () => {
      const response = await h.app.inject({
        method: 'GET',
        url: '/request-id-test/fails',
        headers: { 'x-request-id': 'trace-500' },
      });
      assert.equal(response.statusCode, 500);
      assert.equal(assertNamesItsRequest(response), 'trace-500');
      const lines = log.lines().filter((line) => line.requestId === 'trace-500');
      assert.deepEqual(
        lines.map((line) => line.msg),
        ['about to fail', 'unhandled error'],
      );
      const err = lines[1]!.err as { message: string };
      assert.equal(err.message, 'the cause of the failure');
    });

    it('names the request in an answer to what is not HTTP, over a real socket', async () => {
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const address = h.app.server.address();
      assert.ok(address && typeof address === 'object');
      const socket = connect(address.port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write('FOO /api/v2/sms HTTP/1.1\r\nHost: x\r\n\r\n');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await once(socket, 'close');
      const raw = Buffer.concat(chunks).toString('utf8');
      const id = /\r\nX-Request-Id: (\S+)\r\n/i.exec(raw)?.[1];
      assert.ok(id && UUID.test(id), raw);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      assert.equal(body.code, 'METHOD_NOT_ALLOWED');
      assert.equal(body.requestId, id);
      assert.ok(log.lines().some((line) => line.requestId === id));
    });

    it('gives the operator listener the same ids', async () => {
      const ops = await buildOpsApp(log.logger, { status: async () => ({}) as never });
      try {
        const health = await ops.inject({ method: 'GET', url: '/health' });
        assert.match(idOf(health), UUID);
        const kept = await ops.inject({
          method: 'GET',
          url: '/nothing',
          headers: { 'x-request-id': 'ops-1' },
        });
        assert.equal(kept.statusCode, 404);
        assert.equal(assertNamesItsRequest(kept), 'ops-1');
      } finally {
        await ops.close();
      }
    });
  });
}
