import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuditEventView, AuditPage } from '../../../src/api/console/contract/audit.js';
import { recordAudit } from '../../../src/domain/audit/record-audit.js';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

const HOUR_MS = 3_600_000;

async function pageOf(actor: ConsoleActor, url: string): Promise<AuditPage> {
  const response = await actor.request({ method: 'GET', url });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as AuditPage;
}

/** The pages of a query from `cursor` on, following `nextCursor` to the last. */
async function walk(
  actor: ConsoleActor,
  url: string,
  cursor: string | null,
): Promise<AuditEventView[][]> {
  const pages: AuditEventView[][] = [];
  let next = cursor;
  do {
    const page: AuditPage = await pageOf(actor, next === null ? url : `${url}&cursor=${next}`);
    pages.push(page.data);
    next = page.nextCursor;
  } while (next !== null && pages.length < 100);
  return pages;
}

for (const engine of testEngines()) {
  describe(`console audit log (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it("shows an owner their account's events only, an admin everyone's, by account and action, with who did it", async () => {
      const owner = await consoleActor(h, 'owner');
      const other = await consoleActor(h, 'owner');
      const admin = await consoleActor(h, 'admin');
      const own = await pageOf(owner, '/audit-events');
      assert.ok(own.data.length > 0);
      assert.ok(own.data.every((e) => e.accountId === owner.account!.id));
      const signIn = own.data.find((e) => e.action === 'session.sign-in');
      assert.ok(signIn, 'the owner sees their own sign-in');
      assert.equal(signIn.actorEmail, owner.user.email);
      assert.equal(signIn.actorName, owner.user.name);
      assert.equal(signIn.accountName, owner.account!.name);
      assert.equal(typeof signIn.ip, 'string');

      const all = await pageOf(admin, '/admin/audit-events?action=session.sign-in&limit=100');
      const accounts = new Set(all.data.map((e) => e.accountId));
      assert.ok(
        accounts.has(owner.account!.id) && accounts.has(other.account!.id) && accounts.has(null),
      );
      assert.ok(all.data.every((e) => e.action === 'session.sign-in'));

      const family = await pageOf(admin, '/admin/audit-events?action=session.&limit=100');
      assert.ok(family.data.length >= all.data.length);
      assert.ok(family.data.every((e) => e.action.startsWith('session.')));

      const one = await pageOf(admin, `/admin/audit-events?accountId=${other.account!.id}&limit=1`);
      assert.equal(one.data.length, 1);
      assert.equal(one.data[0]!.accountId, other.account!.id);
      // an owner's own query cannot reach another account: accountId is not theirs to give
      const sneaky = await pageOf(owner, `/audit-events?accountId=${other.account!.id}`);
      assert.ok(sneaky.data.every((e) => e.accountId === owner.account!.id));
    });

    it('pages by cursor, newest first, without repeating or shifting when events are written meanwhile', async () => {
      const owner = await consoleActor(h, 'owner');
      const accountId = owner.account!.id;
      for (let i = 0; i < 7; i++) {
        await recordAudit(h.store, {
          actorUserId: owner.user.id,
          accountId,
          action: 'account.settings',
          targetType: 'account',
          targetId: accountId,
          detail: { step: i },
          ip: '192.0.2.7',
          at: h.clock.now(),
        });
      }
      const first = await pageOf(owner, '/audit-events?action=account.settings&limit=3');
      assert.deepEqual(
        first.data.map((e) => e.detail.step),
        [6, 5, 4],
      );
      assert.ok(first.nextCursor);
      await recordAudit(h.store, {
        actorUserId: owner.user.id,
        accountId,
        action: 'account.settings',
        detail: { step: 7 },
        ip: null,
        at: h.clock.now(),
      });
      const rest = await walk(
        owner,
        '/audit-events?action=account.settings&limit=3',
        first.nextCursor,
      );
      assert.deepEqual(
        rest.map((page) => page.map((e) => e.detail.step)),
        [[3, 2, 1], [0]],
      );
    });

    it('holds only the actions of AUDIT_ACTIONS: another is refused and nothing is written', async () => {
      const owner = await consoleActor(h, 'owner');
      const line = {
        actorUserId: owner.user.id,
        accountId: owner.account!.id,
        ip: null,
        at: h.clock.now(),
      };
      const before = (await h.store.listAuditEvents({ offset: 0, limit: 1 })).total;
      await assert.rejects(
        recordAudit(h.store, { ...line, action: 'message.resend' }),
        /not in AUDIT_ACTIONS/,
      );
      assert.equal((await h.store.listAuditEvents({ offset: 0, limit: 1 })).total, before);
      await recordAudit(h.store, { ...line, action: 'message.cancel' });
      assert.equal((await h.store.listAuditEvents({ offset: 0, limit: 1 })).total, before + 1);
    });

    it('narrows to a window of time: from inclusive, to exclusive', async () => {
      const owner = await consoleActor(h, 'owner');
      const accountId = owner.account!.id;
      const start = h.clock.now();
      for (let i = 0; i < 4; i++) {
        await recordAudit(h.store, {
          actorUserId: null,
          accountId,
          action: 'credits.grant',
          targetType: 'account',
          targetId: accountId,
          detail: { amount: 100 * (i + 1) },
          ip: null,
          at: start + i * HOUR_MS,
        });
      }
      const iso = (ms: number) => new Date(ms).toISOString();
      const window = await pageOf(
        owner,
        `/audit-events?action=credits.grant&from=${iso(start + HOUR_MS)}&to=${iso(start + 3 * HOUR_MS)}`,
      );
      assert.deepEqual(
        window.data.map((e) => e.detail.amount),
        [300, 200],
      );
      // the same instant written with an offset: 07:00 in Bangkok is 00:00 UTC
      const bangkok = new Date(start + 3 * HOUR_MS + 7 * HOUR_MS).toISOString().slice(0, 19);
      const since = await pageOf(
        owner,
        `/audit-events?action=credits.grant&from=${encodeURIComponent(`${bangkok}+07:00`)}`,
      );
      assert.deepEqual(
        since.data.map((e) => e.detail.amount),
        [400],
      );
      // a system event has no actor and says so
      assert.equal(since.data[0]!.actorUserId, null);
      assert.equal(since.data[0]!.actorEmail, null);
    });

    it('refuses bad paging and filters with 400, and the admin log to an owner with 403', async () => {
      const owner = await consoleActor(h, 'owner');
      const iso = new Date(h.clock.now()).toISOString();
      for (const query of [
        'limit=0',
        'limit=101',
        'cursor=abc',
        'cursor=0',
        'cursor=99999999999999999999',
        'from=yesterday',
        'to=2026-13-01T00:00:00Z',
        'action=DROP%20TABLE',
        `from=${iso}&to=${new Date(h.clock.now() - 1).toISOString()}`,
      ]) {
        expectError(
          await owner.request({ method: 'GET', url: `/audit-events?${query}` }),
          400,
          'INVALID_PARAMETER',
        );
      }
      expectError(
        await owner.request({ method: 'GET', url: '/admin/audit-events' }),
        403,
        'FORBIDDEN',
      );
      const admin = await consoleActor(h, 'admin');
      expectError(
        await admin.request({ method: 'GET', url: '/admin/audit-events?accountId=0' }),
        400,
        'INVALID_PARAMETER',
      );
    });
  });
}
