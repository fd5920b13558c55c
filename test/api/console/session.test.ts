import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';
import {
  anonymousSession,
  consoleActor,
  createConsoleUser,
  CONSOLE_ORIGIN,
  sessionCookieOf,
  sessionHeaders,
  signIn,
  TEST_PASSWORD,
} from '../../support/console-session.js';

for (const engine of testEngines()) {
  describe(`console session (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('starts an anonymous session with a CSRF token on the first visit, in an HttpOnly cookie under /console', async () => {
      const response = await h.app.inject({ method: 'GET', url: '/console/api/session' });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.user, null);
      assert.ok(body.csrfToken.length >= 32);
      const cookie = response.cookies.find((c) => c.name === 'nok_session')!;
      assert.ok(cookie.value.length >= 40);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Lax');
      assert.equal(cookie.path, '/console');
      assert.equal(cookie.secure, undefined, 'not Secure over plain HTTP');
      // The same session answers the same token.
      const again = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: sessionCookieOf(response)! },
      });
      assert.equal(again.json().csrfToken, body.csrfToken);
      assert.equal(sessionCookieOf(again), undefined, 'no new cookie for a live session');
    });

    it('signs in with a new session id and token, and answers who is signed in', async () => {
      const { user } = await createConsoleUser(h, 'owner');
      const anonymous = await anonymousSession(h);
      const response = await h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: sessionHeaders(anonymous),
        payload: { email: user.email.toUpperCase(), password: TEST_PASSWORD },
      });
      assert.equal(response.statusCode, 200, response.body);
      const cookie = sessionCookieOf(response)!;
      assert.notEqual(cookie, anonymous.cookie, 'the session id changes at sign-in');
      assert.notEqual(response.json().csrfToken, anonymous.csrfToken);
      assert.deepEqual(response.json().user, {
        id: user.id,
        email: user.email,
        name: user.name,
        role: 'owner',
        accountId: user.accountId,
        timeZone: null,
      });
      // The anonymous session it came from is gone.
      const old = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: anonymous.cookie },
      });
      assert.notEqual(old.json().csrfToken, anonymous.csrfToken);
      const now = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie },
      });
      assert.equal(now.json().user.id, user.id);
    });

    it('refuses a wrong password and an unknown email with the same words, and records the failure', async () => {
      const { user } = await createConsoleUser(h, 'member');
      const anonymous = await anonymousSession(h);
      const answers = [];
      for (const payload of [
        { email: user.email, password: 'not the password' },
        { email: 'nobody@example.test', password: TEST_PASSWORD },
      ]) {
        const response = await h.app.inject({
          method: 'POST',
          url: '/console/api/session',
          headers: sessionHeaders(anonymous),
          payload,
        });
        expectError(response, 401, 'UNAUTHORIZED');
        answers.push(response.json().error);
      }
      assert.equal(answers[0], answers[1]);
      const events = await h.store.listAuditEvents({
        action: 'session.sign-in-failed',
        offset: 0,
        limit: 10,
      });
      assert.ok(events.items.some((e) => e.targetId === String(user.id)));
      assert.ok(!JSON.stringify(events.items).includes('not the password'));
    });

    it('refuses a sign-in without the CSRF token or from another origin', async () => {
      const { user } = await createConsoleUser(h, 'member');
      const anonymous = await anonymousSession(h);
      const payload = { email: user.email, password: TEST_PASSWORD };
      for (const headers of [
        { cookie: anonymous.cookie, origin: CONSOLE_ORIGIN },
        { ...sessionHeaders(anonymous), origin: 'https://evil.example' },
        { ...sessionHeaders(anonymous), 'sec-fetch-site': 'cross-site' },
        { cookie: anonymous.cookie, 'x-csrf-token': anonymous.csrfToken },
        { 'x-csrf-token': anonymous.csrfToken, origin: CONSOLE_ORIGIN },
      ]) {
        const response = await h.app.inject({
          method: 'POST',
          url: '/console/api/session',
          headers,
          payload,
        });
        expectError(response, 403, 'CSRF_FAILED');
        assert.equal(sessionCookieOf(response), undefined);
      }
    });

    it('signs out: the session ends and a new anonymous one begins', async () => {
      const owner = await consoleActor(h, 'owner');
      const response = await owner.request({ method: 'DELETE', url: '/session' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().user, null);
      const after = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: owner.cookie },
      });
      assert.equal(after.json().user, null);
      expectError(await owner.request({ method: 'DELETE', url: '/session' }), 401, 'UNAUTHORIZED');
    });

    it('signs out everywhere: every session of the user ends, others stay', async () => {
      const { user } = await createConsoleUser(h, 'owner');
      const first = await signIn(h, user.email);
      const second = await signIn(h, user.email);
      const other = await consoleActor(h, 'member');
      const response = await h.app.inject({
        method: 'POST',
        url: '/console/api/session/sign-out-everywhere',
        headers: sessionHeaders(first),
      });
      assert.equal(response.statusCode, 200, response.body);
      for (const session of [first, second]) {
        const probe = await h.app.inject({
          method: 'GET',
          url: '/console/api/session',
          headers: { cookie: session.cookie },
        });
        assert.equal(probe.json().user, null);
      }
      const still = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: other.cookie },
      });
      assert.equal(still.json().user.id, other.user.id);
    });

    it('documents the console routes in /console/api/openapi.json and keeps them out of /openapi.json', async () => {
      const consoleDoc = (
        await h.app.inject({ method: 'GET', url: '/console/api/openapi.json' })
      ).json();
      assert.ok(consoleDoc.paths['/console/api/session'].post.requestBody);
      assert.ok(consoleDoc.paths['/console/api/session'].get);
      const apiDoc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.ok(!Object.keys(apiDoc.paths).some((p) => p.startsWith('/console')));
      assert.ok(!Object.keys(consoleDoc.paths).some((p) => p.startsWith('/api/v2')));
    });

    it('answers 400 INVALID_PARAMETER for a malformed sign-in body', async () => {
      const anonymous = await anonymousSession(h);
      for (const payload of [{}, { email: 'not-an-email', password: 'x' }, { email: 'a@b.test' }]) {
        const response = await h.app.inject({
          method: 'POST',
          url: '/console/api/session',
          headers: sessionHeaders(anonymous),
          payload,
        });
        expectError(response, 400, 'INVALID_PARAMETER');
      }
    });
  });
}
