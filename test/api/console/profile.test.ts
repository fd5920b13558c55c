import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  actorOf,
  anonymousSession,
  consoleActor,
  createConsoleUser,
  sessionCookieOf,
  sessionHeaders,
  signIn,
  TEST_PASSWORD,
} from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

const NEW_PASSWORD = 'a different long passphrase';

for (const engine of testEngines()) {
  describe(`console profile (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const isSignedIn = async (cookie: string) =>
      (
        await h.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } })
      ).json().user !== null;

    it('answers the signed-in person’s profile, and changes their name and time zone', async () => {
      const member = await consoleActor(h, 'member');
      const profile = await member.request({ method: 'GET', url: '/profile' });
      assert.equal(profile.statusCode, 200, profile.body);
      assert.deepEqual(profile.json(), {
        id: member.user.id,
        email: member.user.email,
        name: member.user.name,
        role: 'member',
        accountId: member.account!.id,
        timeZone: null,
        totp: { enabled: false, required: null, pending: false, recoveryCodesLeft: 0 },
        accountRequiresTotp: null,
      });
      const changed = await member.request({
        method: 'PATCH',
        url: '/profile',
        payload: { name: '  มะลิ ใจดี ', timeZone: 'Europe/Paris' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().name, 'มะลิ ใจดี');
      assert.equal(changed.json().timeZone, 'Europe/Paris');
      const session = (await member.request({ method: 'GET', url: '/session' })).json();
      assert.equal(session.user.timeZone, 'Europe/Paris');
      const events = await h.store.listAuditEvents({
        action: 'user.profile-changed',
        offset: 0,
        limit: 10,
      });
      assert.deepEqual(events.items[0]?.detail, { name: 'มะลิ ใจดี', timeZone: 'Europe/Paris' });
      // null goes back to the platform default.
      const reset = await member.request({
        method: 'PATCH',
        url: '/profile',
        payload: { timeZone: null },
      });
      assert.equal(reset.json().timeZone, null);
    });

    it('refuses a time zone that is not IANA, an empty name or an empty change, changing nothing', async () => {
      const owner = await consoleActor(h, 'owner');
      for (const payload of [
        { timeZone: 'Mars/Olympus' },
        { timeZone: '+07:00' },
        { name: '   ' },
        { name: 'x'.repeat(101) },
        {},
      ]) {
        expectError(
          await owner.request({ method: 'PATCH', url: '/profile', payload }),
          400,
          'INVALID_PARAMETER',
        );
      }
      const user = await h.store.findUser(owner.user.id);
      assert.equal(user!.name, owner.user.name);
      assert.equal(user!.timeZone, null);
    });

    it('changes the password: the current one is needed, other sessions end, this one gets a new id', async () => {
      const { user } = await createConsoleUser(h, 'owner');
      const here = await signIn(h, user.email);
      const elsewhere = await signIn(h, user.email);
      const actor = actorOf(h, user, null, here);

      expectError(
        await actor.request({
          method: 'POST',
          url: '/profile/password',
          payload: { currentPassword: TEST_PASSWORD, newPassword: 'too short' },
        }),
        400,
        'INVALID_PARAMETER',
      );
      const wrong = await actor.request({
        method: 'POST',
        url: '/profile/password',
        payload: { currentPassword: 'not the password', newPassword: NEW_PASSWORD },
      });
      expectError(wrong, 400, 'INVALID_PARAMETER');
      assert.ok(await isSignedIn(elsewhere.cookie), 'a refused change ends nothing');

      const changed = await actor.request({
        method: 'POST',
        url: '/profile/password',
        payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const cookie = sessionCookieOf(changed)!;
      assert.notEqual(cookie, here.cookie);
      assert.notEqual(changed.json().csrfToken, here.csrfToken);
      assert.equal(changed.json().user.id, user.id);
      assert.ok(await isSignedIn(cookie));
      assert.ok(!(await isSignedIn(here.cookie)), 'the old id of this session is gone');
      assert.ok(!(await isSignedIn(elsewhere.cookie)), 'other sessions end');

      const anonymous = await anonymousSession(h);
      const old = await h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: sessionHeaders(anonymous),
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expectError(old, 401, 'UNAUTHORIZED');
      assert.ok(await signIn(h, user.email, NEW_PASSWORD));

      const events = await h.store.listAuditEvents({
        action: 'user.',
        offset: 0,
        limit: 100,
      });
      const mine = events.items.filter((e) => e.targetId === String(user.id)).map((e) => e.action);
      assert.deepEqual(mine.sort(), ['user.password-change-failed', 'user.password-changed']);
      assert.ok(!JSON.stringify(events.items).includes(NEW_PASSWORD));
    });

    it('counts wrong current passwords as failed sign-ins: past the limit, even the right one waits', async () => {
      const member = await consoleActor(h, 'member');
      for (let i = 0; i < 5; i++) {
        expectError(
          await member.request({
            method: 'POST',
            url: '/profile/password',
            payload: { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD },
          }),
          400,
          'INVALID_PARAMETER',
        );
      }
      expectError(
        await member.request({
          method: 'POST',
          url: '/profile/password',
          payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
        }),
        429,
        'RATE_LIMITED',
      );
    });
  });
}
