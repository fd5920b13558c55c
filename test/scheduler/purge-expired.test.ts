import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startRuntime } from '../../src/main.js';
import { newOneTimeToken } from '../../src/domain/users/one-time-token.js';
import { hashSessionId } from '../../src/domain/users/sessions.js';
import type { SessionRecord } from '../../src/domain/users/user.js';
import {
  LINK_RETENTION_MS,
  purgeExpired,
  WEBHOOK_RETENTION_MS,
} from '../../src/scheduler/purge-expired.js';
import {
  createWebhookEndpoint,
  sendTestWebhook,
} from '../../src/domain/webhooks/manage-endpoints.js';
import { databaseUrlFor } from '../cli/nok-process.js';
import { createConsoleUser } from '../support/console-session.js';
import { testEngines } from '../support/engines.js';
import { FakeClock } from '../support/fake-clock.js';
import { createHarness, type Harness } from '../support/harness.js';

const MINUTE_MS = 60_000;
const sessionLimits = { idleMs: 10 * MINUTE_MS, absoluteMs: 60 * MINUTE_MS };

let sessionCounter = 0;

/**
 * What signing in leaves behind is purged by the scheduler once it can serve nothing more, a
 * batch at a time, on a fake clock and both engines; and `nok start` / `nok scheduler` do it.
 */
for (const engine of testEngines()) {
  describe(`purging expired sign-in records (${engine.name})`, () => {
    let h: Harness;
    let userId: number;
    before(async () => {
      h = await createHarness(engine, { sessionLimits });
      userId = (await createConsoleUser(h, 'member')).user.id;
    });
    after(() => h.close());

    const purge = (batch = 1000) =>
      purgeExpired(h.store, { sessionLimits, nowMs: h.clock.now(), batch });

    /** A stored session begun and last seen so long ago; answers its cookie. */
    async function session(
      ago: { created: number; lastSeen: number },
      owner: number | null = userId,
    ): Promise<string> {
      const id = `purge-test-session-${++sessionCounter}`;
      const record: SessionRecord = {
        idHash: hashSessionId(id),
        userId: owner,
        csrfToken: `token-${sessionCounter}`,
        createdAt: h.clock.now() - ago.created,
        lastSeenAt: h.clock.now() - ago.lastSeen,
        ip: '127.0.0.1',
      };
      await h.store.insertSession(record);
      return `nok_session=${id}`;
    }

    const stored = async (cookie: string) =>
      (await h.store.findSession(hashSessionId(cookie.replace('nok_session=', '')))) !== null;
    const signedIn = async (cookie: string) =>
      (
        await h.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } })
      ).json().user?.id === userId;

    it('purges sessions at their idle or absolute limit, and keeps every one the console still serves', async () => {
      const { idleMs, absoluteMs } = sessionLimits;
      const over = {
        idle: await session({ created: idleMs, lastSeen: idleMs }),
        old: await session({ created: absoluteMs, lastSeen: 0 }),
        anonymous: await session({ created: idleMs, lastSeen: idleMs }, null),
      };
      const live = {
        idle: await session({ created: idleMs, lastSeen: idleMs - 1 }),
        old: await session({ created: absoluteMs - 1, lastSeen: 0 }),
      };
      assert.equal((await purge()).sessions, 3);
      for (const [what, cookie] of Object.entries(over)) {
        assert.equal(await stored(cookie), false, `${what} purged`);
      }
      for (const [what, cookie] of Object.entries(live)) {
        assert.equal(await signedIn(cookie), true, `${what} kept and served`);
      }
      assert.equal((await purge()).sessions, 0);
    });

    it('purges a pile of expired sessions a batch at a time', async () => {
      for (let i = 0; i < 25; i++) {
        await session({ created: sessionLimits.absoluteMs + i, lastSeen: sessionLimits.idleMs });
      }
      const runs = [];
      for (let i = 0; i < 4; i++) runs.push((await purge(10)).sessions);
      assert.deepEqual(runs, [10, 10, 5, 0]);
    });

    it('purges a sign-in counter once its window has ended, not before: the limit holds to the end', async () => {
      const windowMs = 15 * MINUTE_MS;
      for (let i = 0; i < 5; i++)
        await h.store.countAttempt('user:x@example.test', windowMs, h.clock.now());
      h.clock.advance(windowMs - 1);
      assert.equal((await purge()).signInCounters, 0);
      const still = await h.store.countAttempt('user:x@example.test', windowMs, h.clock.now());
      assert.equal(still.attempts, 6, 'counted on in the same window');
      h.clock.advance(1);
      assert.equal((await purge()).signInCounters, 1);
      const fresh = await h.store.countAttempt('user:x@example.test', windowMs, h.clock.now());
      assert.equal(fresh.attempts, 1);
    });

    it('purges invitations and password resets 30 days past their expiry, used or not; until then an expired invitation is still listed', async () => {
      const { account, user } = await createConsoleUser(h, 'owner');
      const nowMs = h.clock.now();
      const invitation = await h.store.insertInvitation({
        accountId: account!.id,
        email: 'late@example.test',
        name: '',
        role: 'member',
        invitedBy: user.id,
        tokenHash: newOneTimeToken().tokenHash,
        nowMs,
        expiresAt: nowMs + MINUTE_MS,
      });
      const reset = await h.store.insertPasswordReset({
        userId: user.id,
        tokenHash: newOneTimeToken().tokenHash,
        nowMs,
        expiresAt: nowMs + MINUTE_MS,
      });
      assert.ok(await h.store.usePasswordReset(reset.id, nowMs));
      h.clock.advance(MINUTE_MS + LINK_RETENTION_MS - 1);
      const early = await purge();
      assert.deepEqual([early.invitations, early.passwordResets], [0, 0]);
      const listed = await h.store.listOpenInvitations(account!.id);
      assert.deepEqual(
        listed.map((i) => i.id),
        [invitation.id],
      );
      h.clock.advance(1);
      const purged = await purge();
      assert.equal(purged.invitations, 1);
      assert.equal(purged.passwordResets, 1);
      assert.equal(await h.store.findInvitation(invitation.id), null);
    });

    it('purges webhook deliveries 30 days after they were made once delivered or given up, with their events; pending ones stay', async () => {
      const { account } = await createConsoleUser(h, 'owner');
      const endpoint = await createWebhookEndpoint(h.store, {
        accountId: account!.id,
        url: 'https://hooks.example.com/purge',
        nowMs: h.clock.now(),
      });
      const delivered = await sendTestWebhook(
        h.store,
        { accountId: null },
        endpoint.uuid,
        h.clock.now(),
      );
      const pending = await sendTestWebhook(
        h.store,
        { accountId: null },
        endpoint.uuid,
        h.clock.now(),
      );
      const [, first] = await h.store.listWebhookDeliveries(endpoint.id, { limit: 2 });
      await h.store.recordWebhookAttempts([
        {
          deliveryId: first!.id,
          endpointId: endpoint.id,
          endpointFailingSince: null,
          at: h.clock.now(),
          statusCode: 204,
          latencyMs: 3,
          error: null,
          response: '',
          state: 'delivered',
          nextAttemptAt: h.clock.now(),
        },
      ]);
      h.clock.advance(WEBHOOK_RETENTION_MS - 1);
      assert.equal((await purge()).webhookRows, 0);
      h.clock.advance(2);
      assert.equal((await purge()).webhookRows, 2, 'the delivery and its event');
      const left = await h.store.listWebhookDeliveries(endpoint.id, { limit: 10 });
      assert.deepEqual(
        left.map((d) => [d.eventUid, d.state]),
        [[pending, 'pending']],
      );
      assert.notEqual(delivered, pending);
    });
  });

  describe(`the scheduler role purges (${engine.name})`, () => {
    it('without any request: a session left idle is gone after the next purge', async () => {
      const db = await engine.create();
      const clock = new FakeClock();
      let purgedLine: () => void = () => undefined;
      const purged = new Promise<void>((resolve) => (purgedLine = resolve));
      const logger = pino(
        { level: 'info' },
        {
          write: (line: string) => {
            if (line.includes('"msg":"purged expired console records"')) purgedLine();
          },
        },
      );
      const config = loadConfig({
        NOK_DATABASE_URL: databaseUrlFor(db),
        NOK_SESSION_IDLE_MINUTES: '5',
      });
      const runtime = await startRuntime(
        config,
        { api: false, scheduler: true },
        { clock, logger, listen: false },
      );
      try {
        const user = await runtime.store.createUser({
          email: 'idle@example.test',
          name: 'Idle',
          role: 'admin',
          accountId: null,
          passwordHash: null,
          nowMs: clock.now(),
        });
        const idHash = hashSessionId('left idle');
        await runtime.store.insertSession({
          idHash,
          userId: user.id,
          csrfToken: 'token',
          createdAt: clock.now(),
          lastSeenAt: clock.now(),
          ip: null,
        });
        clock.advance(5 * MINUTE_MS);
        runtime.jobs!.wake();
        // A bound on the wait: a purge that never comes fails here and still stops the runtime.
        const giveUp = delay(20_000, undefined, { ref: false }).then(() =>
          assert.fail('no purge was logged within 20 s'),
        );
        await Promise.race([purged, giveUp]);
        assert.equal(await runtime.store.findSession(idHash), null);
      } finally {
        await runtime.stop();
        await db.drop();
      }
    });
  });
}
