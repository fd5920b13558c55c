import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { startRuntime } from '../../src/main.js';
import { databaseUrlFor } from '../cli/nok-process.js';
import { TEST_PASSWORD } from '../support/console-session.js';
import { testEngines } from '../support/engines.js';

/**
 * Without SMTP (NOK_SMTP_URL unset), Nok writes each mail to its log, links included, so a demo
 * still works (ADR 0024): through the runtime `nok start` runs, with its own wiring and a log
 * captured line by line, an owner invites a member and the link in the log lets them in.
 */
for (const engine of testEngines()) {
  describe(`mail without SMTP goes to the log (${engine.name})`, () => {
    it('an invitation link appears in the log, and it works', async () => {
      const db = await engine.create();
      const lines: string[] = [];
      let heard: (line: string) => void = () => undefined;
      const logger = pino(
        { level: 'info' },
        {
          write: (line: string) => {
            lines.push(line);
            heard(line);
          },
        },
      );
      const config = loadConfig({ NOK_DATABASE_URL: databaseUrlFor(db) });
      assert.equal(config.mail.smtpUrl, undefined);
      const runtime = await startRuntime(
        config,
        { api: true, scheduler: false },
        { logger, listen: false },
      );
      try {
        const app = runtime.app!;
        const account = await createAccount(runtime.store, {
          name: 'Demo shop',
          nowMs: Date.now(),
          actor: SYSTEM_ACTOR,
        });
        const owner = await runtime.store.createUser({
          email: 'owner@shop.example.test',
          name: 'Owner',
          role: 'owner',
          accountId: account.id,
          passwordHash: await hashPassword(TEST_PASSWORD),
          nowMs: Date.now(),
        });

        /** A browser's request: its session cookie, CSRF token and our own Origin. */
        const browser = { cookie: '', csrfToken: '' };
        const request = async (method: 'GET' | 'POST', url: string, payload?: object) => {
          const response = await app.inject({
            method,
            url: `/console/api${url}`,
            headers: {
              ...(browser.cookie && { cookie: browser.cookie }),
              'x-csrf-token': browser.csrfToken,
              origin: 'http://localhost',
            },
            payload,
          });
          const cookie = response.cookies.filter((c) => c.name === 'nok_session').at(-1);
          if (cookie) browser.cookie = `nok_session=${cookie.value}`;
          const token = (response.json() as { csrfToken?: string }).csrfToken;
          if (token) browser.csrfToken = token;
          return response;
        };
        await request('GET', '/session');
        const signedIn = await request('POST', '/session', {
          email: owner.email,
          password: TEST_PASSWORD,
        });
        assert.equal(signedIn.statusCode, 200, signedIn.body);

        const email = 'new.member@shop.example.test';
        const mailed = new Promise<string>((resolve) => {
          heard = (line) => {
            if (line.includes(email) && line.includes('#token=')) resolve(line);
          };
        });
        const invited = await request('POST', '/invitations', { email, role: 'member' });
        assert.equal(invited.statusCode, 201, invited.body);
        // The mail is posted after the commit: wait for its line, but not for ever.
        const giveUp = delay(10_000, undefined, { ref: false }).then(() =>
          assert.fail(`no invitation in the log:\n${lines.join('')}`),
        );
        const line = JSON.parse(await Promise.race([mailed, giveUp])) as {
          msg: string;
          part: string;
          mail: { to: string };
        };
        assert.equal(line.part, 'mail');
        assert.equal(line.mail.to, email);
        assert.match(line.msg, /NOK_SMTP_URL/);
        const link = /(\S+\/accept-invitation#token=[A-Za-z0-9_-]+)/.exec(line.msg)?.[1];
        assert.ok(link, line.msg);
        assert.ok(link.startsWith(`${config.publicUrl}/console/accept-invitation#token=`), link);

        // The invited person's browser opens the link: a session of its own, the token from
        // the fragment in a POST body.
        browser.cookie = '';
        await request('GET', '/session');
        const token = new URL(link).hash.replace('#token=', '');
        const preview = await request('POST', '/invitation/look-up', { token });
        assert.equal(preview.statusCode, 200, preview.body);
        const accepted = await request('POST', '/invitation/accept', {
          token,
          name: 'New member',
          password: 'a passphrase of their own',
        });
        assert.equal(accepted.statusCode, 200, accepted.body);
        const who = accepted.json() as { user: { email: string; role: string; accountId: number } };
        assert.deepEqual(
          [who.user.email, who.user.role, who.user.accountId],
          [email, 'member', account.id],
        );
        const again = await request('POST', '/invitation/accept', {
          token,
          name: 'Someone else',
          password: 'another passphrase here',
        });
        assert.equal(again.statusCode, 410, 'the link works once');
      } finally {
        await runtime.stop();
        await db.drop();
      }
    });
  });
}
