import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DEFAULT_SIGN_IN_LIMITS } from '../../../src/domain/users/sign-in-limits.js';
import {
  anonymousSession,
  consoleActor,
  createConsoleUser,
  sessionHeaders,
  TEST_PASSWORD,
} from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

const { perUser, perAddress, windowMs } = DEFAULT_SIGN_IN_LIMITS;

/**
 * Sign-in throttling per email and per address (issue 8), on both engines: the limits hold
 * however many attempts race, refusals read alike whichever limit was hit, and a flood of
 * refused attempts writes one audit line per limit and window.
 */
for (const engine of testEngines()) {
  describe(`sign-in throttling (${engine.name})`, () => {
    let h: Harness;
    /** Each test signs in from addresses of its own, so no test sees another's attempts. */
    let addresses = 0;
    const freshAddress = () => `198.51.100.${++addresses}`;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** From a page of its own, as a browser's first visit gives it. */
    const signIn = async (email: string, password: string, address: string) =>
      h.app.inject({
        method: 'POST',
        url: '/console/api/session',
        remoteAddress: address,
        headers: sessionHeaders(await anonymousSession(h)),
        payload: { email, password },
      });

    const statuses = (responses: LightMyRequestResponse[]) => {
      const count: Record<number, number> = {};
      for (const r of responses) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
      return count;
    };

    async function throttledLines(email: string): Promise<{ limit: unknown }[]> {
      const { items } = await h.store.listAuditEvents({
        action: 'session.sign-in-throttled',
        offset: 0,
        limit: 1000,
      });
      return items.filter((e) => e.detail.email === email).map((e) => ({ limit: e.detail.limit }));
    }

    it(`checks no more than ${perUser} of 30 wrong passwords for one email sent at once`, async () => {
      const { user } = await createConsoleUser(h, 'member');
      const address = freshAddress();
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => signIn(user.email, `guess ${i}`, address)),
      );
      // 401: the password was checked and wrong; 429: refused before any check.
      assert.deepEqual(statuses(responses), { 401: perUser, 429: 30 - perUser });
      const failed = await h.store.listAuditEvents({
        action: 'session.sign-in-failed',
        accountId: user.accountId!,
        offset: 0,
        limit: 100,
      });
      assert.equal(failed.total, perUser, 'one failure line per password checked');
      expectError(await signIn(user.email, TEST_PASSWORD, freshAddress()), 429, 'RATE_LIMITED');
    });

    it(`checks no more than ${perAddress} of 40 wrong passwords from one address sent at once`, async () => {
      const address = freshAddress();
      const people = [];
      for (let i = 0; i < 40; i++) people.push((await createConsoleUser(h, 'member')).user);
      const responses = await Promise.all(
        people.map((person) => signIn(person.email, 'not the password', address)),
      );
      assert.deepEqual(statuses(responses), { 401: perAddress, 429: 40 - perAddress });
    });

    it(`refuses every email from an address after ${perAddress} failures across different emails, in the same words as for one email`, async () => {
      const address = freshAddress();
      for (let i = 0; i < perAddress; i++) {
        // A different email each time: no email comes near its own limit.
        expectError(
          await signIn(`stranger${addresses}x${i}@example.test`, 'a guess', address),
          401,
          'UNAUTHORIZED',
        );
      }
      const { user } = await createConsoleUser(h, 'owner');
      const byAddress = await signIn(user.email, TEST_PASSWORD, address);
      expectError(byAddress, 429, 'RATE_LIMITED');
      // The same person from elsewhere signs in: the address was refused, not the email.
      assert.equal((await signIn(user.email, TEST_PASSWORD, freshAddress())).statusCode, 200);

      const { user: tried } = await createConsoleUser(h, 'member');
      const elsewhere = freshAddress();
      for (let i = 0; i < perUser; i++) await signIn(tried.email, `guess ${i}`, elsewhere);
      const byEmail = await signIn(tried.email, TEST_PASSWORD, elsewhere);
      expectError(byEmail, 429, 'RATE_LIMITED');
      assert.equal(byAddress.json().error, byEmail.json().error, 'one generic answer');

      h.clock.advance(windowMs);
      assert.equal((await signIn(user.email, TEST_PASSWORD, address)).statusCode, 200);
    });

    it('counts no successful sign-in against its address', async () => {
      const address = freshAddress();
      const { user } = await createConsoleUser(h, 'member');
      for (let i = 0; i < perAddress + 5; i++) {
        const response = await signIn(user.email, TEST_PASSWORD, address);
        assert.equal(response.statusCode, 200, `sign-in ${i + 1}: ${response.body}`);
      }
    });

    it('audits a flood of refused sign-ins once per limit and window', async () => {
      const { user } = await createConsoleUser(h, 'member');
      const address = freshAddress();
      for (let i = 0; i < perUser; i++) await signIn(user.email, `guess ${i}`, address);
      for (let i = 0; i < 25; i++) {
        expectError(await signIn(user.email, TEST_PASSWORD, address), 429, 'RATE_LIMITED');
      }
      assert.deepEqual(await throttledLines(user.email), [{ limit: 'email' }]);

      // The next window: refused again, audited again, once.
      h.clock.advance(windowMs);
      for (let i = 0; i < perUser; i++) await signIn(user.email, `guess ${i}`, address);
      for (let i = 0; i < 10; i++) await signIn(user.email, TEST_PASSWORD, address);
      assert.equal((await throttledLines(user.email)).length, 2);

      // An address past its limit: one line for the address, whichever emails it tries.
      const flooding = freshAddress();
      for (let i = 0; i < perAddress; i++) {
        await signIn(`flood${addresses}x${i}@example.test`, 'a guess', flooding);
      }
      const target = `target${addresses}@example.test`;
      for (let i = 0; i < 10; i++) {
        expectError(await signIn(target, 'a guess', flooding), 429, 'RATE_LIMITED');
      }
      assert.deepEqual(await throttledLines(target), [{ limit: 'address' }]);
    });

    it('checks no more than the limit of wrong current passwords sent at once to change one', async () => {
      const owner = await consoleActor(h, 'owner');
      const responses = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          owner.request({
            method: 'POST',
            url: '/profile/password',
            payload: { currentPassword: `guess ${i}`, newPassword: 'a brand new passphrase' },
          }),
        ),
      );
      assert.deepEqual(statuses(responses), { 400: perUser, 429: 15 - perUser });
    });
  });
}
