import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { apiKeySecret } from '../../src/domain/accounts/api-key.js';
import { totpCode } from '../../src/domain/users/totp.js';
import { logMailer } from '../../src/mail/log-mailer.js';
import { smtpMailer } from '../../src/mail/smtp-mailer.js';
import {
  anonymousSession,
  consoleActor,
  sessionCookieOf,
  sessionHeaders,
  TEST_PASSWORD,
} from '../support/console-session.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { linkIn, startSmtpInbox, tokenOf, type SmtpInbox } from '../support/smtp-inbox.js';

/*
 * Issue 8: no password, token or full key in any log line or audit detail. With SMTP configured
 * (the log mailer, used only without NOK_SMTP_URL, prints links on purpose: ADR 0024), a run of
 * sign-in (right and wrong), invitation, acceptance, password reset, key creation and
 * two-factor enrolment (sign-in by recovery code, codes regenerated) leaves none of the secrets
 * it handled in the log (every level) nor in the audit log.
 */
for (const engine of testEngines()) {
  describe(`secrets stay out of logs and the audit log (${engine.name})`, () => {
    let h: Harness;
    let inbox: SmtpInbox;
    const lines: string[] = [];

    before(async () => {
      inbox = await startSmtpInbox();
      h = await createHarness(engine, {
        mailer: smtpMailer(inbox.smtpUrl, 'nok@example.test'),
        publicUrl: 'https://sms.example.test',
        logger: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }),
      });
    });
    after(async () => {
      await h.close();
      await inbox.close();
    });

    it('sign-in, invitation, reset, key creation and two-factor enrolment write no password, token, cookie, key, TOTP secret or recovery code', async () => {
      const secrets: string[] = [TEST_PASSWORD];
      const post = async (
        url: string,
        payload: object,
        session?: { cookie: string; csrfToken: string },
      ) =>
        h.app.inject({
          method: 'POST',
          url: `/console/api${url}`,
          headers: sessionHeaders(session ?? (await anonymousSession(h))),
          payload,
        });

      const owner = await consoleActor(h, 'owner');
      secrets.push(owner.cookie.replace('nok_session=', ''), owner.csrfToken);
      const wrong = 'not the password at all';
      secrets.push(wrong);
      assert.equal(
        (await post('/session', { email: owner.user.email, password: wrong })).statusCode,
        401,
      );

      const memberPassword = 'member secret phrase 1';
      secrets.push(memberPassword);
      const email = 'no-secrets-member@example.test';
      const invited = await owner.request({
        method: 'POST',
        url: '/invitations',
        payload: { email },
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const invitationToken = tokenOf(linkIn(await inbox.next(email), '#token='));
      secrets.push(invitationToken);
      const accepted = await post('/invitation/accept', {
        token: invitationToken,
        name: 'Member',
        password: memberPassword,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      secrets.push(sessionCookieOf(accepted)!.replace('nok_session=', ''));

      assert.equal((await post('/password-reset/request', { email })).statusCode, 202);
      const resetToken = tokenOf(linkIn(await inbox.next(email), '#token='));
      secrets.push(resetToken);
      const newPassword = 'the member new phrase';
      secrets.push(newPassword);
      const reset = await post('/password-reset/complete', {
        token: resetToken,
        password: newPassword,
      });
      assert.equal(reset.statusCode, 200, reset.body);
      // A used token, tried again, is refused: still nothing logged of it.
      assert.equal(
        (await post('/password-reset/complete', { token: resetToken, password: newPassword }))
          .statusCode,
        410,
      );

      const key = await owner.request({
        method: 'POST',
        url: '/keys',
        payload: { name: 'server', scopes: ['*'] },
      });
      assert.equal(key.statusCode, 201, key.body);
      const secret = (key.json() as { secret: string }).secret;
      secrets.push(secret, apiKeySecret(secret)!);

      // Two-factor sign-in: the TOTP secret (as shown and inside its otpauth URI) and every
      // recovery code, those used to sign in and those regenerated.
      const started = await owner.request({ method: 'POST', url: '/profile/totp' });
      assert.equal(started.statusCode, 200, started.body);
      const enrolment = started.json() as { secret: string; uri: string };
      secrets.push(
        enrolment.secret,
        enrolment.uri,
        new URL(enrolment.uri).searchParams.get('secret')!,
      );
      const confirmed = await owner.request({
        method: 'POST',
        url: '/profile/totp/confirm',
        payload: { code: totpCode(enrolment.secret, h.clock.now()) },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const { recoveryCodes, session } = confirmed.json() as {
        recoveryCodes: string[];
        session: { csrfToken: string };
      };
      secrets.push(...recoveryCodes, session.csrfToken);
      const enrolled = { cookie: sessionCookieOf(confirmed)!, csrfToken: session.csrfToken };
      secrets.push(enrolled.cookie.replace('nok_session=', ''));
      const withCode = (totpCode: string) =>
        post('/session', { email: owner.user.email, password: TEST_PASSWORD, totpCode });
      assert.equal((await withCode('not-a-recovery-code')).statusCode, 401);
      const byRecovery = await withCode(recoveryCodes[0]!);
      assert.equal(byRecovery.statusCode, 200, byRecovery.body);
      h.clock.advance(30_000); // the next TOTP step: the confirmation used this one
      const regenerated = await post(
        '/profile/totp/recovery-codes',
        { code: totpCode(enrolment.secret, h.clock.now()) },
        enrolled,
      );
      assert.equal(regenerated.statusCode, 200, regenerated.body);
      secrets.push(...(regenerated.json() as { recoveryCodes: string[] }).recoveryCodes);

      const { items } = await h.store.listAuditEvents({ offset: 0, limit: 500 });
      const actions = new Set(items.map((e) => e.action));
      for (const action of [
        'session.sign-in',
        'session.sign-in-failed',
        'invitation.create',
        'invitation.accept',
        'password-reset.request',
        'password-reset.complete',
        'api-key.create',
        'user.totp-enrolment-started',
        'user.totp-enabled',
        'user.recovery-codes-regenerated',
      ]) {
        assert.ok(actions.has(action), `${action} audited`);
      }
      const audit = JSON.stringify(items);
      const log = lines.join('\n');
      for (const value of secrets) {
        assert.ok(!audit.includes(value), `the audit log holds a secret (${value.slice(0, 4)}…)`);
        assert.ok(!log.includes(value), `a log line holds a secret (${value.slice(0, 4)}…)`);
      }
      assert.doesNotMatch(audit, /\$argon2/);
      assert.doesNotMatch(log, /\$argon2|#token=/);
    });
  });
}

describe('the log mailer (no NOK_SMTP_URL)', () => {
  it('prints the whole mail, link included, so a demo can follow it: the one deliberate exception', async () => {
    const lines: string[] = [];
    const mailer = logMailer(
      pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    );
    await mailer.send({
      to: 'someone@example.test',
      subject: 'Invitation',
      text: 'Open https://sms.example.test/console/accept-invitation#token=abc',
    });
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!) as { msg: string; mail: { to: string } };
    assert.equal(line.mail.to, 'someone@example.test');
    assert.match(line.msg, /accept-invitation#token=abc/);
    assert.match(line.msg, /NOK_SMTP_URL/);
  });
});
