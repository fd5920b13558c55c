import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

/** One raw HTTP/1.1 exchange over a socket: the status line, headers and body as sent. */
async function rawExchange(port: number, request: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(request);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('utf8');
}

for (const engine of testEngines()) {
  describe(`a method a path does not serve (${engine.name})`, () => {
    let h: Harness;
    let key: string;
    before(async () => {
      h = await createHarness(engine);
      key = (await h.customer()).key;
    });
    after(() => h.close());

    const uuid = '3f0c8a52-6b1e-4d4a-9c3e-0a1b2c3d4e5f';
    for (const [method, url, allow] of [
      ['DELETE', '/api/v2/sms', 'GET, HEAD'],
      // "send" and "preview-cost" are no uuid: GET /api/v2/sms/{uuid} does not serve them.
      ['GET', '/api/v2/sms/send', 'POST'],
      ['GET', '/api/v2/sms/preview-cost', 'POST'],
      ['PUT', '/api/v2/sms/send', 'POST'],
      ['DELETE', '/api/v2/sms/preview-cost', 'POST'],
      ['GET', `/api/v2/sms/${uuid}/cancel`, 'POST'],
      ['PATCH', `/api/v2/sms/${uuid}`, 'GET, HEAD'],
      ['OPTIONS', '/api/v2/senders', 'GET, HEAD'],
      ['POST', '/api/v2/sms/credit/balance?x=1', 'GET, HEAD'],
      ['PROPFIND', `/api/v2/sms/${uuid}/recipients`, 'GET, HEAD'],
      ['POST', '/openapi.json', 'GET, HEAD'],
    ] as const) {
      it(`answers ${method} ${url} with 405 and Allow: ${allow}`, async () => {
        for (const withKey of [true, false]) {
          const response = await h.request({
            method: method as 'GET',
            url,
            ...(withKey ? { key } : {}),
          });
          assert.equal(response.statusCode, 405, response.body);
          assert.equal(response.headers.allow, allow);
          const body = response.json();
          assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId']);
          assert.equal(body.code, 'METHOD_NOT_ALLOWED');
        }
      });
    }

    it('answers 405 before reading the body: malformed JSON does not turn it into a 400', async () => {
      const response = await h.request({
        method: 'POST',
        url: '/api/v2/sms',
        key,
        headers: { 'content-type': 'application/json' },
        payload: '{"not json',
      });
      assert.equal(response.statusCode, 405, response.body);
      assert.equal(response.headers.allow, 'GET, HEAD');
    });

    it('keeps 404 for a path no route serves, whatever the method', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await h.request({ method, url: '/api/v2/nothing-here', key });
        assert.equal(response.statusCode, 404, response.body);
        assert.equal(response.headers.allow, undefined);
        assert.equal(response.json().code, 'NOT_FOUND');
      }
    });

    it('takes no word for a path id: a malformed uuid or row id is a path no route serves', async () => {
      for (const url of [
        '/api/v2/sms/3f0c',
        '/api/v2/sms/3F0C8A52-6B1E-4D4A-9C3E-0A1B2C3D4E5F/recipients',
        '/api/v2/sms/credit',
        '/console/api/templates/abc',
        '/console/api/messages/send',
      ]) {
        const response = await h.request({ method: 'GET', url, key });
        assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
        assert.equal(response.headers.allow, undefined, url);
        assert.equal(response.json().code, 'NOT_FOUND', url);
      }
    });

    it('answers a method HTTP parsers do not know with the same 405, over a real socket', async () => {
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const address = h.app.server.address();
      assert.ok(address !== null && typeof address === 'object');
      const served = await rawExchange(
        address.port,
        'FOO /api/v2/sms?page=1 HTTP/1.1\r\nHost: localhost\r\n\r\n',
      );
      assert.match(served, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      assert.match(served, /\r\nAllow: GET, HEAD\r\n/);
      const body = JSON.parse(served.slice(served.indexOf('\r\n\r\n') + 4));
      assert.equal(body.code, 'METHOD_NOT_ALLOWED');

      const unknown = await rawExchange(
        address.port,
        'FOO /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n',
      );
      assert.match(unknown, /^HTTP\/1\.1 404 Not Found\r\n/);
      assert.equal(JSON.parse(unknown.slice(unknown.indexOf('\r\n\r\n') + 4)).code, 'NOT_FOUND');
    });
  });
}
