import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../../src/domain/users/totp.js';
import type { User } from '../../../src/domain/users/user.js';
import {
  actorOf,
  anonymousSession,
  consoleActor,
  createConsoleUser,
  sessionCookieOf,
  sessionHeaders,
  signIn,
  TEST_PASSWORD,
  type ConsoleActor,
} from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

const STEP_MS = 30_000;

for (const engine of testEngines()) {
  describe(`two-factor sign-in (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** A sign-in attempt from a fresh anonymous session. */
    async function attempt(email: string, extra: { totpCode?: string; password?: string } = {}) {
      const anonymous = await anonymousSession(h);
      return h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: sessionHeaders(anonymous),
        payload: { email, password: extra.password ?? TEST_PASSWORD, ...extra },
      });
    }

    /** Enrols `actor` through the API; answers the secret, the recovery codes and the new session. */
    async function enrol(actor: ConsoleActor) {
      const started = await actor.request({ method: 'POST', url: '/profile/totp' });
      assert.equal(started.statusCode, 200, started.body);
      const { secret } = started.json();
      const confirmed = await actor.request({
        method: 'POST',
        url: '/profile/totp/confirm',
        payload: { code: totpCode(secret, h.clock.now()) },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const session = {
        cookie: sessionCookieOf(confirmed)!,
        csrfToken: confirmed.json().session.csrfToken,
      };
      return {
        secret: secret as string,
        recoveryCodes: confirmed.json().recoveryCodes as string[],
        actor: actorOf(h, actor.user, actor.account, session),
      };
    }

    const stored = async (user: User) => (await h.store.findUser(user.id))!;
    const auditOf = async (action: string) =>
      (await h.store.listAuditEvents({ action, offset: 0, limit: 100 })).items;

    it('enrols: a secret with its otpauth URI and QR code, in force only once a current code confirms it', async () => {
      const owner = await consoleActor(h, 'owner');
      const started = await owner.request({ method: 'POST', url: '/profile/totp' });
      assert.equal(started.statusCode, 200, started.body);
      const { uri, qrCode, secret } = started.json();
      assert.match(secret, /^[A-Z2-7]{32}$/);
      assert.ok(uri.startsWith('otpauth://totp/Nok:'));
      assert.ok(uri.includes(`secret=${secret}`));
      assert.ok(uri.includes(encodeURIComponent(owner.user.email)));
      assert.ok(qrCode.startsWith('data:image/svg+xml;base64,'));
      assert.match(Buffer.from(qrCode.split(',')[1], 'base64').toString(), /<svg/);
      let profile = (await owner.request({ method: 'GET', url: '/profile' })).json();
      assert.deepEqual(profile.totp, {
        enabled: false,
        required: null,
        pending: true,
        recoveryCodesLeft: 0,
      });
      // Not in force yet: signing in asks for no code.
      assert.equal((await attempt(owner.user.email)).statusCode, 200);

      expectError(
        await owner.request({
          method: 'POST',
          url: '/profile/totp/confirm',
          payload: { code: '000000' },
        }),
        400,
        'TOTP_CODE_INVALID',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/profile/totp/confirm',
          payload: { code: 'abc' },
        }),
        400,
        'INVALID_PARAMETER',
      );
      assert.equal((await stored(owner.user)).totpEnabledAt, null);

      const confirmed = await owner.request({
        method: 'POST',
        url: '/profile/totp/confirm',
        payload: { code: totpCode(secret, h.clock.now()) },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const { recoveryCodes, session } = confirmed.json();
      assert.equal(recoveryCodes.length, 10);
      assert.equal(new Set(recoveryCodes).size, 10);
      for (const code of recoveryCodes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      // Enrolling rotates the session: the old cookie is signed out, the new one is signed in.
      const newCookie = sessionCookieOf(confirmed)!;
      assert.notEqual(newCookie, owner.cookie);
      assert.notEqual(session.csrfToken, owner.csrfToken);
      const old = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: owner.cookie },
      });
      assert.equal(old.json().user, null);
      const now = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie: newCookie },
      });
      assert.equal(now.json().user.totpEnabled, true);

      // Only hashes are stored; the audit log holds neither codes nor the secret.
      const user = await stored(owner.user);
      assert.equal(user.recoveryCodeHashes.length, 10);
      const row = JSON.stringify(user);
      for (const code of recoveryCodes) assert.ok(!row.includes(code));
      const events = JSON.stringify(await auditOf('user.'));
      assert.ok(!events.includes(secret));
      for (const code of recoveryCodes) assert.ok(!events.includes(code));
      const actions = (await auditOf('user.'))
        .filter((e) => e.targetId === String(owner.user.id))
        .map((e) => e.action);
      assert.deepEqual(actions.sort(), ['user.totp-enabled', 'user.totp-enrolment-started']);

      profile = (
        await h.app.inject({
          method: 'GET',
          url: '/console/api/profile',
          headers: { cookie: newCookie },
        })
      ).json();
      assert.deepEqual(profile.totp, {
        enabled: true,
        required: null,
        pending: false,
        recoveryCodesLeft: 10,
      });
      // A second enrolment is refused while one is in force.
      const again = await actorOf(h, owner.user, owner.account, {
        cookie: newCookie,
        csrfToken: session.csrfToken,
      }).request({ method: 'POST', url: '/profile/totp' });
      expectError(again, 409, 'INVALID_TRANSITION');
    });

    it('asks for the code after the right password, counts a wrong code as a failure, and never takes a code twice', async () => {
      const member = await consoleActor(h, 'member');
      const { secret } = await enrol(member);
      h.clock.advance(STEP_MS);

      const noCode = await attempt(member.user.email);
      expectError(noCode, 401, 'TOTP_REQUIRED');
      assert.equal(sessionCookieOf(noCode), undefined);
      const wrong = await attempt(member.user.email, { totpCode: '123456' });
      expectError(wrong, 401, 'TOTP_REQUIRED');
      assert.equal(
        wrong.json().error,
        noCode.json().error,
        'the same words for no code and a wrong one',
      );
      // A wrong password with a right code is a wrong password.
      expectError(
        await attempt(member.user.email, {
          password: 'not the password',
          totpCode: totpCode(secret, h.clock.now()),
        }),
        401,
        'UNAUTHORIZED',
      );

      const code = totpCode(secret, h.clock.now());
      const right = await attempt(member.user.email, { totpCode: code });
      assert.equal(right.statusCode, 200, right.body);
      assert.equal(right.json().user.totpEnabled, true);
      // The same code again, here or from another browser, is refused: its step is used.
      expectError(await attempt(member.user.email, { totpCode: code }), 401, 'TOTP_REQUIRED');
      // So is the previous step's code, though still inside the window.
      expectError(
        await attempt(member.user.email, { totpCode: totpCode(secret, h.clock.now() - STEP_MS) }),
        401,
        'TOTP_REQUIRED',
      );
      h.clock.advance(STEP_MS);
      const next = await attempt(member.user.email, { totpCode: totpCode(secret, h.clock.now()) });
      assert.equal(next.statusCode, 200, next.body);

      const failures = (await auditOf('session.sign-in-failed')).filter(
        (e) => e.targetId === String(member.user.id),
      );
      assert.deepEqual(failures.map((e) => e.detail.step).sort(), [
        'password',
        'second-factor',
        'second-factor',
        'second-factor',
      ]);
      const signIns = (await auditOf('session.sign-in')).filter(
        (e) => e.targetId === String(member.user.id),
      );
      assert.ok(signIns.some((e) => e.detail.factor === 'totp'));
    });

    it('throttles wrong codes exactly like wrong passwords: past five, even the right code is refused', async () => {
      const owner = await consoleActor(h, 'owner');
      const { secret } = await enrol(owner);
      h.clock.advance(STEP_MS);
      for (let i = 0; i < 5; i++) {
        expectError(await attempt(owner.user.email, { totpCode: '000000' }), 401, 'TOTP_REQUIRED');
      }
      expectError(
        await attempt(owner.user.email, { totpCode: totpCode(secret, h.clock.now()) }),
        429,
        'RATE_LIMITED',
      );
      h.clock.advance(15 * 60_000 + 1);
      const later = await attempt(owner.user.email, { totpCode: totpCode(secret, h.clock.now()) });
      assert.equal(later.statusCode, 200, later.body);
    });

    it('takes a recovery code once in place of the code, and regenerating replaces them all', async () => {
      const owner = await consoleActor(h, 'owner');
      const enrolled = await enrol(owner);
      const [first, second] = enrolled.recoveryCodes;
      const used = await attempt(owner.user.email, { totpCode: first!.toUpperCase() });
      assert.equal(used.statusCode, 200, used.body);
      expectError(await attempt(owner.user.email, { totpCode: first! }), 401, 'TOTP_REQUIRED');
      assert.equal((await stored(owner.user)).recoveryCodeHashes.length, 9);
      const signIn = (await auditOf('session.sign-in')).find(
        (e) => e.targetId === String(owner.user.id) && e.detail.factor === 'recovery-code',
      );
      assert.equal(signIn?.detail.codesLeft, 9);

      // Regenerating needs a current code, not a used one.
      const actor = enrolled.actor;
      h.clock.advance(STEP_MS);
      expectError(
        await actor.request({
          method: 'POST',
          url: '/profile/totp/recovery-codes',
          payload: { code: '999999' },
        }),
        400,
        'TOTP_CODE_INVALID',
      );
      const code = totpCode(enrolled.secret, h.clock.now());
      const fresh = await actor.request({
        method: 'POST',
        url: '/profile/totp/recovery-codes',
        payload: { code },
      });
      assert.equal(fresh.statusCode, 200, fresh.body);
      assert.equal(fresh.json().recoveryCodes.length, 10);
      expectError(
        await actor.request({
          method: 'POST',
          url: '/profile/totp/recovery-codes',
          payload: { code },
        }),
        400,
        'TOTP_CODE_INVALID',
      );
      expectError(await attempt(owner.user.email, { totpCode: second! }), 401, 'TOTP_REQUIRED');
      const withNew = await attempt(owner.user.email, { totpCode: fresh.json().recoveryCodes[3] });
      assert.equal(withNew.statusCode, 200, withNew.body);
      assert.equal((await auditOf('user.recovery-codes-regenerated')).length >= 1, true);
    });

    it('disables for a current code, but never for a platform admin nor in an account that requires it', async () => {
      const owner = await consoleActor(h, 'owner');
      const enrolled = await enrol(owner);
      h.clock.advance(STEP_MS);
      expectError(
        await enrolled.actor.request({
          method: 'POST',
          url: '/profile/totp/disable',
          payload: { code: '000000' },
        }),
        400,
        'TOTP_CODE_INVALID',
      );
      const off = await enrolled.actor.request({
        method: 'POST',
        url: '/profile/totp/disable',
        payload: { code: totpCode(enrolled.secret, h.clock.now()) },
      });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual(off.json().totp, {
        enabled: false,
        required: null,
        pending: false,
        recoveryCodesLeft: 0,
      });
      const user = await stored(owner.user);
      assert.equal(user.totpSecret, null);
      assert.deepEqual(user.recoveryCodeHashes, []);
      assert.equal((await attempt(owner.user.email)).statusCode, 200, 'no code asked any more');

      const admin = await consoleActor(h, 'admin');
      const adminUser = await stored(admin.user);
      h.clock.advance(STEP_MS);
      expectError(
        await admin.request({
          method: 'POST',
          url: '/profile/totp/disable',
          payload: { code: totpCode(adminUser.totpSecret!, h.clock.now()) },
        }),
        409,
        'INVALID_TRANSITION',
      );

      const strict = await consoleActor(h, 'owner');
      const strictEnrolled = await enrol(strict);
      await h.store.setAccountRequireTotp(strict.account!.id, true);
      h.clock.advance(STEP_MS);
      const refused = await strictEnrolled.actor.request({
        method: 'POST',
        url: '/profile/totp/disable',
        payload: { code: totpCode(strictEnrolled.secret, h.clock.now()) },
      });
      expectError(refused, 409, 'INVALID_TRANSITION');
      assert.notEqual((await stored(strict.user)).totpEnabledAt, null);
    });

    it('an owner requires TOTP for the account: its people without it get a session restricted to enrolling', async () => {
      const unenrolled = await consoleActor(h, 'owner');
      const refused = await unenrolled.request({
        method: 'PUT',
        url: '/account/two-factor',
        payload: { required: true },
      });
      expectError(refused, 409, 'INVALID_TRANSITION');
      assert.equal((await h.store.findAccount(unenrolled.account!.id))!.requireTotp, false);

      const { actor: owner } = await enrol(await consoleActor(h, 'owner'));
      const { user: memberUser } = await createConsoleUser(h, 'member', {
        account: owner.account!,
      });
      const member = actorOf(h, memberUser, owner.account, await signIn(h, memberUser.email));
      expectError(
        await member.request({
          method: 'PUT',
          url: '/account/two-factor',
          payload: { required: true },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await owner.request({
          method: 'PUT',
          url: '/account/two-factor',
          payload: { required: 'yes' },
        }),
        400,
        'INVALID_PARAMETER',
      );
      const set = await owner.request({
        method: 'PUT',
        url: '/account/two-factor',
        payload: { required: true },
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { required: true });
      const event = (await auditOf('account.two-factor-requirement-changed')).find(
        (e) => e.accountId === owner.account!.id,
      );
      assert.deepEqual(event?.detail, { required: true });
      assert.equal(event?.actorUserId, owner.user.id);

      // The member's live session is restricted at its next request; the owner's is not.
      const session = (await member.request({ method: 'GET', url: '/session' })).json();
      assert.equal(session.user.totpRequired, 'account');
      assert.equal(session.user.totpEnabled, false);
      expectError(
        await member.request({ method: 'GET', url: '/senders' }),
        403,
        'TOTP_ENROLMENT_REQUIRED',
      );
      assert.equal((await owner.request({ method: 'GET', url: '/keys' })).statusCode, 200);
      assert.equal((await member.request({ method: 'GET', url: '/profile' })).statusCode, 200);
      // A new sign-in is restricted the same way.
      const again = actorOf(h, memberUser, owner.account, await signIn(h, memberUser.email));
      expectError(
        await again.request({ method: 'GET', url: '/senders' }),
        403,
        'TOTP_ENROLMENT_REQUIRED',
      );

      const enrolled = await enrol(again);
      assert.equal(
        (await enrolled.actor.request({ method: 'GET', url: '/senders' })).statusCode,
        200,
      );
      // The owner's profile shows the switch; the member's does not.
      const ownerProfile = (await owner.request({ method: 'GET', url: '/profile' })).json();
      assert.equal(ownerProfile.accountRequiresTotp, true);
      assert.equal(ownerProfile.totp.required, 'account');
      const memberProfile = (
        await enrolled.actor.request({ method: 'GET', url: '/profile' })
      ).json();
      assert.equal(memberProfile.accountRequiresTotp, null);

      const unset = await owner.request({
        method: 'PUT',
        url: '/account/two-factor',
        payload: { required: false },
      });
      assert.equal(unset.statusCode, 200, unset.body);
      assert.equal((await h.store.findAccount(owner.account!.id))!.requireTotp, false);
    });

    it('a platform admin without TOTP signs in to a session restricted to enrolling, then has every right', async () => {
      const { user } = await createConsoleUser(h, 'admin', { totp: false });
      const session = await signIn(h, user.email);
      const admin = actorOf(h, user, null, session);
      const me = (await admin.request({ method: 'GET', url: '/session' })).json();
      assert.equal(me.user.totpRequired, 'role');
      expectError(
        await admin.request({ method: 'GET', url: '/admin/accounts' }),
        403,
        'TOTP_ENROLMENT_REQUIRED',
      );
      const enrolled = await enrol(admin);
      assert.equal(
        (await enrolled.actor.request({ method: 'GET', url: '/admin/accounts' })).statusCode,
        200,
      );
      h.clock.advance(STEP_MS);
      expectError(await attempt(user.email), 401, 'TOTP_REQUIRED');
      const withCode = await attempt(user.email, {
        totpCode: totpCode(enrolled.secret, h.clock.now()),
      });
      assert.equal(withCode.statusCode, 200, withCode.body);
    });

    it('refuses a code for enrolment once too many wrong ones were tried', async () => {
      const member = await consoleActor(h, 'member');
      const started = await member.request({ method: 'POST', url: '/profile/totp' });
      const { secret } = started.json();
      for (let i = 0; i < 5; i++) {
        expectError(
          await member.request({
            method: 'POST',
            url: '/profile/totp/confirm',
            payload: { code: '000000' },
          }),
          400,
          'TOTP_CODE_INVALID',
        );
      }
      expectError(
        await member.request({
          method: 'POST',
          url: '/profile/totp/confirm',
          payload: { code: totpCode(secret, h.clock.now()) },
        }),
        429,
        'RATE_LIMITED',
      );
      assert.equal((await stored(member.user)).totpEnabledAt, null);
    });
  });
}
