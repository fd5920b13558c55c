import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import pino from 'pino';
import { smtpMailer } from '../../../src/mail/smtp-mailer.js';
import {
  actorOf,
  anonymousSession,
  consoleActor,
  sessionCookieOf,
  sessionHeaders,
  signIn,
  TEST_PASSWORD,
  type ConsoleActor,
  type ConsoleSession,
} from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';
import { linkIn, startSmtpInbox, tokenOf, type SmtpInbox } from '../../support/smtp-inbox.js';

const PUBLIC_URL = 'https://sms.example.test';
const NEW_PASSWORD = 'a brand new passphrase';
const DAY_MS = 24 * 3_600_000;

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

let emailCounter = 0;
const freshEmail = (what: string) => `${what}${++emailCounter}@people.example.test`;

for (const engine of testEngines()) {
  describe(`console people: invitations, password resets, members (${engine.name})`, () => {
    let h: Harness;
    let inbox: SmtpInbox;
    let admin: ConsoleActor;
    const logLines: string[] = [];

    before(async () => {
      inbox = await startSmtpInbox();
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      );
      h = await createHarness(engine, {
        mailer: smtpMailer(inbox.smtpUrl, 'Nok <nok@example.test>'),
        publicUrl: PUBLIC_URL,
        logger,
      });
      admin = await consoleActor(h, 'admin');
    });
    after(async () => {
      await h.close();
      await inbox.close();
    });

    /** A guest request in an anonymous session, as the pages a mailed link opens make it. */
    async function guest(
      url: string,
      payload: object,
      session?: ConsoleSession,
    ): Promise<LightMyRequestResponse> {
      const own = session ?? (await anonymousSession(h));
      return h.app.inject({
        method: 'POST',
        url: `/console/api${url}`,
        headers: sessionHeaders(own),
        payload,
      });
    }

    async function auditActions(accountId: number | undefined): Promise<string[]> {
      const { items } = await h.store.listAuditEvents({ accountId, offset: 0, limit: 200 });
      return items.map((e) => e.action);
    }

    /** Accepts the invitation mailed to `email`; answers the new person's signed-in actor. */
    async function accept(email: string, name: string): Promise<ConsoleActor> {
      const mail = await inbox.next(email);
      const token = tokenOf(linkIn(mail, '/console/accept-invitation#token='));
      const response = await guest('/invitation/accept', {
        token,
        name,
        password: TEST_PASSWORD,
      });
      const session = ok<{ user: { id: number }; csrfToken: string }>(response);
      const user = (await h.store.findUser(session.user.id))!;
      const account = (await h.store.findAccount(user.accountId!))!;
      return actorOf(h, user, account, {
        cookie: sessionCookieOf(response)!,
        csrfToken: session.csrfToken,
      });
    }

    it('answers an invitation the same way whoever the email is: a sign-in elsewhere on Nok changes only the mail', async () => {
      const owner = await consoleActor(h, 'owner');
      const elsewhere = await consoleActor(h, 'member');
      const fresh = freshEmail('nobody-yet');
      const invite = (email: string) =>
        owner.request({ method: 'POST', url: '/invitations', payload: { email } });
      const answers = [await invite(fresh), await invite(elsewhere.user.email)];
      const shapes = answers.map((response) => {
        assert.equal(response.statusCode, 201, response.body);
        const body = response.json() as Record<string, unknown>;
        return Object.fromEntries(
          Object.entries(body).map(([key, value]) => [
            key,
            key === 'id' || key === 'email' ? typeof value : value,
          ]),
        );
      });
      assert.deepEqual(shapes[0], shapes[1], 'the same answer for either email');
      const listed = ok<{ invitations: { email: string }[] }>(
        await owner.request({ method: 'GET', url: '/users' }),
      );
      assert.deepEqual(
        listed.invitations.map((i) => i.email).sort(),
        [fresh, elsewhere.user.email].sort(),
      );

      // The mail says what the HTTP answer does not: a link for the new email, a notice
      // without one for the email that already signs in (its sign-in stays as it was).
      const toFresh = await inbox.next(fresh);
      assert.ok(linkIn(toFresh, '/console/accept-invitation#token='));
      const toSignedUp = await inbox.next(elsewhere.user.email);
      assert.match(toSignedUp.text, /already has a sign-in on Nok/);
      assert.doesNotMatch(toSignedUp.text, /accept-invitation|token=/);
      const resent = await owner.request({
        method: 'POST',
        url: `/invitations/${(answers[1]!.json() as { id: number }).id}/resend`,
      });
      assert.equal(resent.statusCode, 200, resent.body);
      assert.doesNotMatch((await inbox.next(elsewhere.user.email)).text, /token=/);
      const user = (await h.store.findUser(elsewhere.user.id))!;
      assert.equal(user.accountId, elsewhere.account!.id);
      assert.equal(user.role, 'member');
    });

    it('an admin invites an account’s owner by mail; the owner accepts by the link, is signed in, and the link works once', async () => {
      const account = await h.account({ name: 'Siam Shop' });
      const email = freshEmail('owner');
      const invited = ok<{ id: number; role: string; email: string }>(
        await admin.request({
          method: 'POST',
          url: `/admin/accounts/${account.id}/invitations`,
          // A Host header of the attacker's choosing never makes the link.
          headers: { host: 'evil.example', origin: 'http://evil.example' },
          payload: { email: email.toUpperCase() },
        }),
        201,
      );
      assert.equal(invited.role, 'owner');
      assert.equal(invited.email, email);

      const mail = await inbox.next(email);
      assert.equal(mail.from, 'nok@example.test');
      assert.match(mail.subject, /Siam Shop/);
      const link = linkIn(mail, '/console/accept-invitation');
      assert.ok(link.startsWith(`${PUBLIC_URL}/console/accept-invitation#token=`), link);
      const token = tokenOf(link);
      assert.ok(!link.includes('?'), 'the token is in the fragment, never in the query');

      const preview = ok<{ accountName: string; email: string; role: string }>(
        await guest('/invitation/look-up', { token }),
      );
      assert.deepEqual(
        [preview.accountName, preview.email, preview.role],
        ['Siam Shop', email, 'owner'],
      );

      expectError(
        await guest('/invitation/accept', { token, name: 'Somchai', password: 'short' }),
        400,
        'INVALID_PARAMETER',
      );
      const anonymous = await anonymousSession(h);
      const accepted = await guest(
        '/invitation/accept',
        { token, name: 'Somchai', password: TEST_PASSWORD },
        anonymous,
      );
      const session = ok<{ user: { email: string; role: string; accountId: number } }>(accepted);
      assert.deepEqual(
        [session.user.email, session.user.role, session.user.accountId],
        [email, 'owner', account.id],
      );
      const cookie = sessionCookieOf(accepted)!;
      assert.notEqual(cookie, anonymous.cookie, 'accepting starts a new session');
      const who = await h.app.inject({
        method: 'GET',
        url: '/console/api/session',
        headers: { cookie },
      });
      assert.equal(who.json().user.email, email);

      expectError(await guest('/invitation/look-up', { token }), 410, 'LINK_USED');
      expectError(
        await guest('/invitation/accept', { token, name: 'Again', password: TEST_PASSWORD }),
        410,
        'LINK_USED',
      );
      // Signs in with the password chosen.
      await signIn(h, email);
      const actions = await auditActions(account.id);
      assert.ok(actions.includes('invitation.create'), actions.join());
      assert.ok(actions.includes('invitation.accept'), actions.join());
    });

    it('an owner invites a member, sees the invitation, and inviting an invited email is a clear 409', async () => {
      const owner = await consoleActor(h, 'owner');
      const email = freshEmail('member');
      ok(await owner.request({ method: 'POST', url: '/invitations', payload: { email } }), 201);
      const listed = ok<{
        users: { email: string }[];
        invitations: { email: string; role: string; expired: boolean }[];
      }>(await owner.request({ method: 'GET', url: '/users' }));
      assert.deepEqual(
        listed.users.map((u) => u.email),
        [owner.user.email],
      );
      assert.deepEqual(
        listed.invitations.map((i) => [i.email, i.role, i.expired]),
        [[email, 'member', false]],
      );

      expectError(
        await owner.request({ method: 'POST', url: '/invitations', payload: { email } }),
        409,
        'ALREADY_INVITED',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/invitations',
          payload: { email: 'not an email' },
        }),
        400,
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/invitations',
          payload: { email: freshEmail('x'), role: 'admin' },
        }),
        400,
      );

      const member = await accept(email, 'Malee');
      assert.equal(member.user.role, 'member');
      assert.equal(member.user.accountId, owner.account!.id);
      const after = ok<{ users: { email: string; role: string }[]; invitations: unknown[] }>(
        await owner.request({ method: 'GET', url: '/users' }),
      );
      assert.deepEqual(
        after.users.map((u) => [u.email, u.role]),
        [
          [owner.user.email, 'owner'],
          [email, 'member'],
        ],
      );
      assert.deepEqual(after.invitations, []);
      // A member has no users page.
      expectError(await member.request({ method: 'GET', url: '/users' }), 403, 'FORBIDDEN');
    });

    it('re-sending mails a new link and kills the old one; revoking kills the link; an expired link says so', async () => {
      const owner8 = await consoleActor(h, 'owner');
      const email = freshEmail('resend');
      const invitation = ok<{ id: number }>(
        await owner8.request({ method: 'POST', url: '/invitations', payload: { email } }),
        201,
      );
      const first = tokenOf(linkIn(await inbox.next(email), '#token='));

      h.clock.advance(8 * DAY_MS);
      expectError(await guest('/invitation/look-up', { token: first }), 410, 'LINK_EXPIRED');
      // Eight days on, the owner signs in again.
      const owner = actorOf(h, owner8.user, owner8.account, await signIn(h, owner8.user.email));
      const expired = ok<{ invitations: { expired: boolean }[] }>(
        await owner.request({ method: 'GET', url: '/users' }),
      );
      assert.equal(expired.invitations[0]!.expired, true);

      ok(await owner.request({ method: 'POST', url: `/invitations/${invitation.id}/resend` }));
      const second = tokenOf(linkIn(await inbox.next(email), '#token='));
      assert.notEqual(second, first);
      expectError(await guest('/invitation/look-up', { token: first }), 404, 'NOT_FOUND');
      ok(await guest('/invitation/look-up', { token: second }));

      ok(await owner.request({ method: 'DELETE', url: `/invitations/${invitation.id}` }));
      expectError(await guest('/invitation/look-up', { token: second }), 404, 'NOT_FOUND');
      expectError(
        await guest('/invitation/accept', { token: second, name: 'X', password: TEST_PASSWORD }),
        404,
        'NOT_FOUND',
      );
      expectError(await guest('/invitation/look-up', { token: 'not-a-token' }), 404, 'NOT_FOUND');
      const actions = await auditActions(owner.account!.id);
      for (const action of ['invitation.create', 'invitation.resend', 'invitation.revoke'])
        assert.ok(actions.includes(action), `${action} in ${actions.join()}`);
      assert.equal(await h.store.findUserByEmail(email), null);
    });

    it('an owner removes a member, whose sessions end at once; nobody removes themselves nor the last owner', async () => {
      const owner = await consoleActor(h, 'owner');
      const email = freshEmail('leaving');
      ok(await owner.request({ method: 'POST', url: '/invitations', payload: { email } }), 201);
      const member = await accept(email, 'Leaving member');
      ok(await member.request({ method: 'GET', url: '/session' }));

      expectError(
        await owner.request({ method: 'DELETE', url: `/users/${owner.user.id}` }),
        409,
        'NOT_REMOVABLE',
      );
      const removed = ok<{ email: string }>(
        await owner.request({ method: 'DELETE', url: `/users/${member.user.id}` }),
      );
      assert.equal(removed.email, email);
      const gone = await member.request({ method: 'GET', url: '/keys' });
      assert.equal(gone.statusCode, 401, gone.body);
      assert.equal(await h.store.findUserByEmail(email), null);
      // The email may be invited again.
      ok(await owner.request({ method: 'POST', url: '/invitations', payload: { email } }), 201);
      await inbox.next(email);

      // A second owner may be removed; then the first is the last and stays.
      const coOwnerEmail = freshEmail('co-owner');
      ok(
        await owner.request({
          method: 'POST',
          url: '/invitations',
          payload: { email: coOwnerEmail, role: 'owner' },
        }),
        201,
      );
      const coOwner = await accept(coOwnerEmail, 'Co-owner');
      expectError(
        await coOwner.request({ method: 'DELETE', url: `/users/${coOwner.user.id}` }),
        409,
        'NOT_REMOVABLE',
      );
      ok(await coOwner.request({ method: 'DELETE', url: `/users/${owner.user.id}` }));
      const actions = await auditActions(owner.account!.id);
      assert.ok(actions.includes('user.remove'), actions.join());
    });

    it('forgot password answers the same for anyone, mails a one-hour link, and the new password ends every session', async () => {
      const owner = await consoleActor(h, 'owner');
      const otherBrowser = await signIn(h, owner.user.email);
      const before = inbox.mails.length;

      const unknown = await guest('/password-reset/request', { email: freshEmail('nobody') });
      const known = await guest('/password-reset/request', { email: owner.user.email });
      assert.equal(unknown.statusCode, 202);
      assert.equal(known.statusCode, 202);
      assert.equal(unknown.body, known.body, 'the answer never tells who has a sign-in');
      const mail = await inbox.next(owner.user.email);
      assert.equal(inbox.mails.length, before + 1, 'no mail for an unknown email');
      const link = linkIn(mail, '/console/reset-password');
      assert.ok(link.startsWith(`${PUBLIC_URL}/console/reset-password#token=`), link);
      const token = tokenOf(link);

      const preview = ok<{ email: string }>(await guest('/password-reset/look-up', { token }));
      assert.equal(preview.email, owner.user.email);
      expectError(await guest('/password-reset/complete', { token, password: 'short' }), 400);
      ok(await guest('/password-reset/complete', { token, password: NEW_PASSWORD }));

      for (const session of [owner, otherBrowser]) {
        const response = await h.app.inject({
          method: 'GET',
          url: '/console/api/keys',
          headers: sessionHeaders(session),
        });
        assert.equal(response.statusCode, 401, 'every session ended');
      }
      expectError(
        await guest('/password-reset/complete', { token, password: NEW_PASSWORD }),
        410,
        'LINK_USED',
      );
      await signIn(h, owner.user.email, NEW_PASSWORD);
      const anonymous = await anonymousSession(h);
      const old = await h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: sessionHeaders(anonymous),
        payload: { email: owner.user.email, password: TEST_PASSWORD },
      });
      assert.equal(old.statusCode, 401);

      // A link older than an hour has expired.
      await guest('/password-reset/request', { email: owner.user.email });
      const late = tokenOf(linkIn(await inbox.next(owner.user.email), '#token='));
      h.clock.advance(3_600_000);
      expectError(await guest('/password-reset/look-up', { token: late }), 410, 'LINK_EXPIRED');
      expectError(
        await guest('/password-reset/complete', { token: late, password: NEW_PASSWORD }),
        410,
        'LINK_EXPIRED',
      );
      const actions = await auditActions(owner.account!.id);
      assert.ok(actions.includes('password-reset.request'), actions.join());
      assert.ok(actions.includes('password-reset.complete'), actions.join());
    });

    it('throttles reset requests: per person silently (no more mail), per address with 429', async () => {
      const owner = await consoleActor(h, 'owner');
      h.clock.advance(2 * 3_600_000); // past earlier tests' requests from this address
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await guest('/password-reset/request', { email: owner.user.email })).statusCode,
          202,
        );
        await inbox.next(owner.user.email);
      }
      const fourth = await guest('/password-reset/request', { email: owner.user.email });
      assert.equal(fourth.statusCode, 202, 'the same answer');
      const { items } = await h.store.listAuditEvents({
        accountId: owner.account!.id,
        action: 'password-reset.request',
        offset: 0,
        limit: 1,
      });
      assert.equal(items[0]!.detail.outcome, 'throttled, no mail');
      const resets = await h.db.database.db
        .selectFrom('password_resets')
        .select('id')
        .where('user_id', '=', owner.user.id)
        .execute();
      assert.equal(resets.length, 3);
      for (let i = 4; i < 10; i++)
        await guest('/password-reset/request', { email: freshEmail('n') });
      expectError(
        await guest('/password-reset/request', { email: owner.user.email }),
        429,
        'RATE_LIMITED',
      );
    });

    it('tells the account’s owners by mail when an admin decides on a sender request, with the note', async () => {
      const owner = await consoleActor(h, 'owner');
      const admin = await consoleActor(h, 'admin');
      const nowMs = h.clock.now();
      const request = (await h.store.insertSenderRequest({
        accountId: owner.account!.id,
        name: 'SIAMSHOP',
        details: {
          purpose: 'otp',
          sampleMessages: ['Your code is 123456'],
          registrationNumber: '0105551234567',
        },
        nowMs,
      }))!;
      await h.store.addSenderRequestEvent({
        requestId: request.id,
        step: 'submitted',
        actorUserId: owner.user.id,
        note: null,
        nowMs,
      });
      ok(
        await admin.request({
          method: 'POST',
          url: `/admin/sender-requests/${request.id}/review`,
          payload: { decision: 'request_changes', note: 'Attach the company certificate' },
        }),
      );
      const mail = await inbox.next(owner.user.email);
      assert.match(mail.subject, /SIAMSHOP/);
      assert.match(mail.text, /Attach the company certificate/);
      assert.ok(mail.text.includes(`${PUBLIC_URL}/console/sender-names/requests/${request.id}`));
    });

    it('a mail that cannot be sent is logged and undoes nothing', async () => {
      const broken = await createHarness(engine, {
        mailer: smtpMailer('smtp://127.0.0.1:1', 'nok@example.test'),
        logger: pino(
          { level: 'info' },
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              logLines.push(chunk.toString());
              done();
            },
          }),
        ),
      });
      try {
        const owner = await consoleActor(broken, 'owner');
        const email = freshEmail('unmailed');
        const response = await owner.request({
          method: 'POST',
          url: '/invitations',
          payload: { email },
        });
        assert.equal(response.statusCode, 201, response.body);
        const listed = await owner.request({ method: 'GET', url: '/users' });
        assert.equal(listed.json().invitations[0].email, email);
        const deadline = Date.now() + 10_000;
        while (!logLines.some((l) => l.includes('could not be sent')) && Date.now() < deadline)
          await new Promise((resolve) => setImmediate(resolve));
        const line = logLines.find((l) => l.includes('could not be sent'));
        assert.ok(line, 'the failure is logged');
        assert.ok(line.includes(email));
        assert.ok(!line.includes('#token='), 'never the link');
      } finally {
        await broken.close();
      }
    });
  });
}
