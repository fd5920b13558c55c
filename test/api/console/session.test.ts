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

    it('stores nothing for anonymous visits, however many, and keeps their CSRF token to their own cookie', async () => {
      const count = async () =>
        Number(
          (
            await h.db.database.db
              .selectFrom('sessions')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const visits = await Promise.all(Array.from({ length: 200 }, () => anonymousSession(h)));
      assert.equal(await count(), before, 'no session row for a visit nobody signed in to');
      assert.equal(new Set(visits.map((v) => v.cookie)).size, 200);
      assert.equal(new Set(visits.map((v) => v.csrfToken)).size, 200);
      // The token does not give the cookie away.
      for (const visit of visits) assert.ok(!visit.cookie.includes(visit.csrfToken));

      // Its own token passes the CSRF check (a wrong password, then 401); another visit's does
      // not, nor a made-up cookie of the anonymous shape, nor no cookie.
      const { user } = await createConsoleUser(h, 'member');
      const payload = { email: user.email, password: 'not the password' };
      const [first, second] = visits;
      const attempt = (headers: Record<string, string>) =>
        h.app.inject({ method: 'POST', url: '/console/api/session', headers, payload });
      expectError(await attempt(sessionHeaders(first!)), 401, 'UNAUTHORIZED');
      const refused: Record<string, string>[] = [
        { ...sessionHeaders(first!), 'x-csrf-token': second!.csrfToken },
        { ...sessionHeaders(first!), cookie: `nok_session=anon.${'x'.repeat(43)}` },
        { ...sessionHeaders(first!), cookie: `nok_session=anon.short` },
        { 'x-csrf-token': first!.csrfToken, origin: CONSOLE_ORIGIN },
      ];
      for (const headers of refused) expectError(await attempt(headers), 403, 'CSRF_FAILED');
      // A sign-in stores one row, of the person.
      await signIn(h, user.email);
      assert.equal(await count(), before + 1);
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
        totpEnabled: false,
        totpRequired: null,
      });
      // The anonymous session it came from is not signed in: a cookie planted before sign-in
      // is worth nothing after it.
      const old = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: anonymous.cookie },
      });
      assert.equal(old.json().user, null);
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

    it('throttles sign-in: the sixth failure for one email within 15 minutes answers 429, even with the right password', async () => {
      const { user } = await createConsoleUser(h, 'member');
      const anonymous = await anonymousSession(h);
      const attempt = (password: string) =>
        h.app.inject({
          method: 'POST',
          url: '/console/api/session',
          headers: sessionHeaders(anonymous),
          payload: { email: user.email, password },
        });
      for (let i = 0; i < 5; i++) expectError(await attempt(`guess ${i}`), 401, 'UNAUTHORIZED');
      expectError(await attempt(TEST_PASSWORD), 429, 'RATE_LIMITED');
      h.clock.advance(15 * 60_000 + 1);
      assert.equal((await attempt(TEST_PASSWORD)).statusCode, 200);
    });
  });
}

/** Console sessions on a fake clock, with the limits as `NOK_SESSION_*` would set them. */
for (const engine of testEngines()) {
  describe(`console session limits (${engine.name})`, () => {
    const idleMs = 10 * 60_000;
    const absoluteMs = 60 * 60_000;
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { sessionLimits: { idleMs, absoluteMs } });
    });
    after(() => h.close());

    const whoIs = async (cookie: string) =>
      (
        await h.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } })
      ).json().user as { id: number } | null;

    it('ends a session left idle for the idle limit, and keeps one used just before it', async () => {
      const owner = await consoleActor(h, 'owner');
      const other = await consoleActor(h, 'member');
      h.clock.advance(idleMs - 1);
      assert.equal((await whoIs(owner.cookie))?.id, owner.user.id, 'one millisecond to spare');
      h.clock.advance(1);
      assert.equal(await whoIs(other.cookie), null, 'idle for the whole limit: ended');
      // The request at idleMs - 1 counted as use: the owner has another idle limit from there.
      h.clock.advance(idleMs - 2);
      assert.equal((await whoIs(owner.cookie))?.id, owner.user.id);
      expectError(await other.request({ method: 'GET', url: '/profile' }), 401, 'UNAUTHORIZED');
    });

    it('ends a session at the absolute limit however busy it was', async () => {
      const owner = await consoleActor(h, 'owner');
      // A request every five minutes, never idle for long, for the whole absolute limit.
      for (let t = 0; t < absoluteMs - 5 * 60_000; t += 5 * 60_000) {
        h.clock.advance(5 * 60_000);
        const response = await owner.request({ method: 'GET', url: '/profile' });
        assert.equal(response.statusCode, 200, `at ${t / 60_000 + 5} minutes: ${response.body}`);
      }
      h.clock.advance(5 * 60_000 - 1);
      assert.equal((await owner.request({ method: 'GET', url: '/profile' })).statusCode, 200);
      h.clock.advance(1);
      expectError(await owner.request({ method: 'GET', url: '/profile' }), 401, 'UNAUTHORIZED');
      assert.equal(await whoIs(owner.cookie), null);
      // Signing in again starts a new one.
      const again = await signIn(h, owner.user.email);
      assert.equal((await whoIs(again.cookie))?.id, owner.user.id);
    });
  });
}

/** Behind a reverse proxy that terminates TLS (NOK_TRUST_PROXY), and in front of none. */
for (const engine of testEngines()) {
  describe(`the session cookie over TLS through a proxy (${engine.name})`, () => {
    const tls = { host: 'sms.example.test', 'x-forwarded-proto': 'https' };

    it('is Secure when the request came over TLS through a trusted proxy, at the first visit and at sign-in', async () => {
      const h = await createHarness(engine, { trustProxy: true });
      try {
        const first = await h.app.inject({
          method: 'GET',
          url: '/console/api/session',
          headers: tls,
        });
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.cookies.find((c) => c.name === 'nok_session')!.secure, true);
        const { user } = await createConsoleUser(h, 'owner');
        const signedIn = await h.app.inject({
          method: 'POST',
          url: '/console/api/session',
          headers: {
            ...tls,
            cookie: sessionCookieOf(first)!,
            'x-csrf-token': first.json().csrfToken,
            origin: 'https://sms.example.test',
          },
          payload: { email: user.email, password: TEST_PASSWORD },
        });
        assert.equal(signedIn.statusCode, 200, signedIn.body);
        assert.equal(signedIn.cookies.find((c) => c.name === 'nok_session')!.secure, true);
        // The same proxy saying plain HTTP: not Secure.
        const plain = await h.app.inject({
          method: 'GET',
          url: '/console/api/session',
          headers: { ...tls, 'x-forwarded-proto': 'http' },
        });
        assert.equal(plain.cookies.find((c) => c.name === 'nok_session')!.secure, undefined);
      } finally {
        await h.close();
      }
    });

    it('is not Secure for X-Forwarded-Proto: https when the proxy is not trusted', async () => {
      const h = await createHarness(engine, { trustProxy: false });
      try {
        const first = await h.app.inject({
          method: 'GET',
          url: '/console/api/session',
          headers: tls,
        });
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.cookies.find((c) => c.name === 'nok_session')!.secure, undefined);
      } finally {
        await h.close();
      }
    });
  });
}

/** Which origin a state change must come from: NOK_PUBLIC_URL's when set, else the request's own. */
for (const engine of testEngines()) {
  describe(`the origin of console state changes (${engine.name})`, () => {
    /** A wrong password from `origin` to a Nok reached as `host`: 401 passed the CSRF check. */
    async function signInFrom(h: Harness, host: string, origin: string) {
      const first = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { host },
      });
      return h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: {
          host,
          cookie: sessionCookieOf(first)!,
          'x-csrf-token': first.json().csrfToken,
          origin,
        },
        payload: { email: 'someone@example.test', password: 'not the password' },
      });
    }

    it('with NOK_PUBLIC_URL, must be its origin, whatever Host the request names', async () => {
      const h = await createHarness(engine, { consoleOrigin: 'https://sms.example.test' });
      try {
        // Behind a proxy that passes its own upstream Host on.
        const behind = 'nok-internal:8080';
        expectError(await signInFrom(h, behind, 'https://sms.example.test'), 401, 'UNAUTHORIZED');
        for (const origin of [
          'http://nok-internal:8080',
          'http://sms.example.test',
          'https://evil.example',
        ]) {
          expectError(await signInFrom(h, behind, origin), 403, 'CSRF_FAILED');
        }
        // A request naming the public host itself, from another origin, is refused too.
        expectError(
          await signInFrom(h, 'sms.example.test', 'http://sms.example.test'),
          403,
          'CSRF_FAILED',
        );
      } finally {
        await h.close();
      }
    });

    it('without NOK_PUBLIC_URL, must be the protocol and Host the request came with', async () => {
      const h = await createHarness(engine);
      try {
        expectError(
          await signInFrom(h, 'nok-internal:8080', 'http://nok-internal:8080'),
          401,
          'UNAUTHORIZED',
        );
        expectError(
          await signInFrom(h, 'nok-internal:8080', 'https://sms.example.test'),
          403,
          'CSRF_FAILED',
        );
      } finally {
        await h.close();
      }
    });
  });
}
