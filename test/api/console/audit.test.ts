import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

for (const engine of testEngines()) {
  describe(`console audit log (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it("shows an owner their account's events only, an admin everyone's, paged and by action", async () => {
      const owner = await consoleActor(h, 'owner');
      const other = await consoleActor(h, 'owner');
      const admin = await consoleActor(h, 'admin');
      const own = await owner.request({ method: 'GET', url: '/audit-events' });
      assert.equal(own.statusCode, 200, own.body);
      const items = own.json().items as { accountId: number; action: string; actorEmail: string }[];
      assert.ok(items.length > 0);
      assert.ok(items.every((e) => e.accountId === owner.account!.id));
      assert.ok(
        items.some((e) => e.action === 'session.sign-in' && e.actorEmail === owner.user.email),
      );

      const all = await admin.request({
        method: 'GET',
        url: '/admin/audit-events?action=session.sign-in&limit=100',
      });
      assert.equal(all.statusCode, 200, all.body);
      const accounts = new Set(
        all.json().items.map((e: { accountId: number | null }) => e.accountId),
      );
      assert.ok(
        accounts.has(owner.account!.id) && accounts.has(other.account!.id) && accounts.has(null),
      );
      assert.ok(all.json().items.every((e: { action: string }) => e.action === 'session.sign-in'));

      const one = await admin.request({
        method: 'GET',
        url: `/admin/audit-events?accountId=${other.account!.id}&limit=1`,
      });
      assert.equal(one.json().items.length, 1);
      assert.equal(one.json().items[0].accountId, other.account!.id);

      expectError(
        await owner.request({ method: 'GET', url: '/audit-events?limit=0' }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await owner.request({ method: 'GET', url: '/admin/audit-events' }),
        403,
        'FORBIDDEN',
      );
    });
  });
}
