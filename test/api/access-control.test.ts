import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { withAccess } from '../../src/api/access.js';
import { installAccessControl } from '../../src/api/plugins/access-control.js';

function appWithAccessControl() {
  const app = Fastify();
  const guarded: string[] = [];
  installAccessControl(app, {
    async apiKey(request, _reply, scope) {
      guarded.push(`${request.url} ${scope}`);
    },
    async console(request, _reply, role) {
      guarded.push(`${request.url} role:${role}`);
    },
  });
  return { app, guarded };
}

describe('access control', () => {
  it('refuses to start when a route declares no access, naming the route', async () => {
    const { app } = appWithAccessControl();
    app.get('/declared', { config: { access: 'public' } }, async () => 'ok');
    app.post('/forgotten', async () => 'ok');
    await assert.rejects(async () => app.ready(), /POST \/forgotten/);
    await app.close();
  });

  it('declares the routes of a plugin we do not write through withAccess', async () => {
    const { app, guarded } = appWithAccessControl();
    await app.register(
      withAccess({ scope: 'sms:read' }, async (scope: FastifyInstance) => {
        scope.get('/theirs', async () => 'ok');
      }),
    );
    await app.ready();
    assert.deepEqual(
      app.declaredRoutes().map((r) => [r.method, r.url, r.access]),
      [
        ['GET', '/theirs', { scope: 'sms:read' }],
        ['HEAD', '/theirs', { scope: 'sms:read' }],
      ],
    );
    assert.equal((await app.inject({ url: '/theirs' })).statusCode, 200);
    assert.deepEqual(guarded, ['/theirs sms:read']);
    await app.close();
  });

  it('runs the guard before the body is parsed, and not at all for an unknown route', async () => {
    const { app, guarded } = appWithAccessControl();
    let parsed = false;
    app.addContentTypeParser('application/json', (_request, _payload, done) => {
      parsed = true;
      done(null, {});
    });
    app.post('/send', { config: { access: { scope: 'sms:send' } } }, async () => 'ok');
    app.addHook('preParsing', async () => {
      assert.deepEqual(guarded, ['/send sms:send'], 'the guard ran before parsing');
    });
    await app.ready();
    const response = await app.inject({ method: 'POST', url: '/send', payload: {} });
    assert.equal(response.statusCode, 200);
    assert.ok(parsed);
    assert.equal((await app.inject({ url: '/nowhere' })).statusCode, 404);
    assert.deepEqual(guarded, ['/send sms:send']);
    await app.close();
  });
});
