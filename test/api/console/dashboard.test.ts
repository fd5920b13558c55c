import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type {
  AccountDashboard,
  PlatformDashboard,
} from '../../../src/api/console/contract/dashboard.js';
import { startDeliveryFigures } from '../../../src/dispatcher/delivery-figures.js';
import { deliveryFiguresStore } from '../../../src/storage/dashboard-store.js';
import type { RecipientStatus } from '../../../src/domain/statuses.js';
import pino from 'pino';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { startDeliveryRig } from '../../support/delivery-rig.js';
import { whenTold } from '../../support/lifecycle-waits.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Customer, type Harness } from '../../support/harness.js';

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

function refused(response: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.json().code, code, response.body);
}

/** The harness clock's "now": 2026-11-22T12:00:00Z. */
const NOW = Date.parse('2026-11-22T12:00:00Z');

for (const engine of testEngines()) {
  describe(`console dashboards (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** Sends at an instant of the harness clock, then puts the clock back. */
    async function sendAt(customer: Customer, iso: string, msisdns: string[]) {
      const was = h.clock.now();
      h.clock.advance(Date.parse(iso) - was);
      try {
        return await h.send(customer, { sender: customer.sender, content: 'Hi', msisdns });
      } finally {
        h.clock.advance(was - h.clock.now());
      }
    }

    async function setCounts(uuid: string, counts: Partial<Record<RecipientStatus, number>>) {
      const message = (await h.store.findMessageByUuid(uuid))!;
      await h.store.setMessageCounts(
        message.id,
        new Map(Object.entries(counts) as [RecipientStatus, number][]),
      );
    }

    async function dashboardOf(actor: ConsoleActor): Promise<AccountDashboard> {
      return ok<AccountDashboard>(await actor.request({ method: 'GET', url: '/dashboard' }));
    }

    it("buckets sends, recipients and delivery outcomes by the person's own time zone", async () => {
      const customer = await h.customer();
      const a = await sendAt(customer, '2026-11-22T03:00:00Z', ['0811111111', '0811111112']);
      const b = await sendAt(customer, '2026-11-22T06:00:00Z', ['0811111113']);
      const c = await sendAt(customer, '2026-11-21T04:59:00Z', ['0811111114', '0811111115']);
      await setCounts(a.uuid, { success: 1, failed: 1 });
      await setCounts(b.uuid, { timeout: 1 });
      await setCounts(c.uuid, { expired: 1, success: 1 });
      assert.equal(h.clock.now(), NOW);

      const newYork = await consoleActor(h, 'member', { account: customer.account });
      ok(
        await newYork.request({
          method: 'PATCH',
          url: '/profile',
          payload: { timeZone: 'America/New_York' },
        }),
      );
      const ny = await dashboardOf(newYork);
      assert.equal(ny.timeZone, 'America/New_York');
      assert.equal(ny.days.length, 30);
      // 07:00 on the 22nd in New York (UTC-5): today is the 22nd.
      assert.equal(ny.days.at(-1)!.day, '2026-11-22');
      const nyDay = (day: string) => ny.days.find((d) => d.day === day)!;
      // a: 22:00 on the 21st in New York; b: 01:00 on the 22nd; c: 23:59 on the 20th.
      assert.deepEqual(nyDay('2026-11-21'), {
        day: '2026-11-21',
        sends: 1,
        recipients: 2,
        success: 1,
        failed: 1,
        expired: 0,
        timeout: 0,
      });
      assert.deepEqual(nyDay('2026-11-22'), {
        day: '2026-11-22',
        sends: 1,
        recipients: 1,
        success: 0,
        failed: 0,
        expired: 0,
        timeout: 1,
      });
      assert.equal(nyDay('2026-11-20').sends, 1);
      assert.equal(nyDay('2026-11-20').expired, 1);

      // The same messages in Bangkok (UTC+7, the default zone): a and b both on the 22nd.
      const bangkok = await consoleActor(h, 'owner', { account: customer.account });
      const bkk = await dashboardOf(bangkok);
      assert.equal(bkk.timeZone, 'Asia/Bangkok');
      const bkkDay = (day: string) => bkk.days.find((d) => d.day === day)!;
      assert.equal(bkkDay('2026-11-22').sends, 2);
      assert.equal(bkkDay('2026-11-22').recipients, 3);
      assert.equal(bkkDay('2026-11-21').sends, 1);
      assert.equal(bkkDay('2026-11-20').sends, 0);
      // The message list's order: the latest accepted first.
      assert.deepEqual(
        bkk.latest.map((m) => m.uuid),
        [c.uuid, b.uuid, a.uuid],
      );
    });

    it('warns below the threshold the owner sets, refuses a bad one, and a member cannot set it', async () => {
      const owner = await consoleActor(h, 'owner');
      const account = owner.account!;
      const member = await consoleActor(h, 'member', { account });
      const first = await dashboardOf(owner);
      assert.equal(first.lowBalanceThreshold, 0);
      assert.equal(first.lowBalance, false, 'no threshold: no warning, even at 0 credits');

      const set = (actor: ConsoleActor, payload: object) =>
        actor.request({ method: 'PUT', url: '/dashboard/low-balance-threshold', payload });
      assert.deepEqual(ok(await set(owner, { lowBalanceThreshold: 5000 })), {
        lowBalanceThreshold: 5000,
      });
      const warned = await dashboardOf(member);
      assert.equal(warned.lowBalanceThreshold, 5000);
      assert.equal(warned.lowBalance, true, 'a balance of 0 is below 5,000');

      for (const bad of [
        { lowBalanceThreshold: -1 },
        { lowBalanceThreshold: 1.5 },
        { lowBalanceThreshold: '100' },
        { lowBalanceThreshold: 1_000_000_000_001 },
        {},
      ]) {
        refused(await set(owner, bad), 400, 'INVALID_PARAMETER');
      }
      refused(await set(member, { lowBalanceThreshold: 1 }), 403, 'FORBIDDEN');
      assert.equal((await h.store.findAccount(account.id))!.lowBalanceThreshold, 5000);

      const { items } = await h.store.listAuditEvents({
        accountId: account.id,
        offset: 0,
        limit: 10,
      });
      const change = items.find((e) => e.action === 'account.settings');
      assert.deepEqual(change?.detail, { lowBalanceThreshold: { from: 0, to: 5000 } });
    });

    it('an admin sets the threshold on the account page, and the warning lifts above it', async () => {
      const admin = await consoleActor(h, 'admin');
      const owner = await consoleActor(h, 'owner');
      const id = owner.account!.id;
      ok(
        await admin.request({
          method: 'POST',
          url: `/admin/accounts/${id}/credits`,
          payload: { kind: 'grant', amount: 300, note: 'test' },
        }),
      );
      const patched = ok<{ lowBalanceThreshold: number }>(
        await admin.request({
          method: 'PATCH',
          url: `/admin/accounts/${id}`,
          payload: { lowBalanceThreshold: 1000 },
        }),
      );
      assert.equal(patched.lowBalanceThreshold, 1000);
      const detail = ok<{ lowBalanceThreshold: number }>(
        await admin.request({ method: 'GET', url: `/admin/accounts/${id}` }),
      );
      assert.equal(detail.lowBalanceThreshold, 1000);
      assert.equal((await dashboardOf(owner)).lowBalance, true);
      refused(
        await admin.request({
          method: 'PATCH',
          url: `/admin/accounts/${id}`,
          payload: { lowBalanceThreshold: -5 },
        }),
        400,
        'INVALID_PARAMETER',
      );
      ok(
        await admin.request({
          method: 'PATCH',
          url: `/admin/accounts/${id}`,
          payload: { lowBalanceThreshold: 300 },
        }),
      );
      const dash = await dashboardOf(owner);
      assert.equal(dash.balance, 300);
      assert.equal(dash.lowBalance, false, 'a balance equal to the threshold is not below it');
      refused(await admin.request({ method: 'GET', url: '/dashboard' }), 403, 'FORBIDDEN');
      refused(await owner.request({ method: 'GET', url: '/admin/dashboard' }), 403, 'FORBIDDEN');
    });

    it('shows recipients per carrier, submit errors by code and receipt latency after real deliveries', async () => {
      // A store of its own: the dispatcher would deliver the other tests' messages too.
      const h = await createHarness(engine);
      after(() => h.close());
      const figures = startDeliveryFigures({
        store: deliveryFiguresStore(h.db.database.db),
        now: () => h.clock.now(),
        logger: pino({ level: 'silent' }),
        flushMs: 60_000,
      });
      const rig = await startDeliveryRig(
        h,
        [{ name: 'sim', smsc: { invalidPrefixes: ['66830'], receiptDelayMs: 0 } }],
        { observer: figures.observer },
      );
      try {
        const customer = await h.customer();
        const msisdns = [
          ...Array.from({ length: 20 }, (_, i) => `08400000${String(i).padStart(2, '0')}`),
          '0830000001',
          '0830000002',
          '0830000003',
        ];
        const { uuid } = await h.send(customer, {
          sender: customer.sender,
          content: 'Hi',
          msisdns,
        });
        await rig.materialise();
        await whenTold(
          rig.events,
          async () => {
            const counts = await h.store.messageCountsByUuid(uuid);
            return (counts.get('pending') ?? 0) === 0 && counts.size > 0;
          },
          'every recipient to reach a final status',
        );
      } finally {
        await rig.close();
        await figures.stop();
      }
      const admin = await consoleActor(h, 'admin');
      const platform = ok<PlatformDashboard>(
        await admin.request({ method: 'GET', url: '/admin/dashboard' }),
      );
      assert.deepEqual(platform.carriers, ['sim']);
      const today = platform.days.at(-1)!;
      assert.equal(today.day, '2026-11-22');
      assert.equal(today.recipients.sim, 20);
      // ESME_RINVDSTADR once per refused number; `down` while the binds were still opening.
      const byCode = new Map(platform.submitErrors.map((e) => [e.code, e]));
      assert.deepEqual(byCode.get('0x0000000b'), { code: '0x0000000b', carrier: 'sim', count: 3 });
      assert.deepEqual(
        [...byCode.keys()].filter((code) => code !== '0x0000000b' && code !== 'down'),
        [],
      );
      const [sim] = platform.latency;
      assert.equal(sim!.carrier, 'sim');
      assert.ok(sim!.receipts >= 15, `receipts counted: ${sim!.receipts}`);
      assert.ok(sim!.p50 !== null && sim!.p50 > 0 && sim!.p50 <= sim!.p99!);
      assert.equal(platform.latencyDays.at(-1)!.receipts, sim!.receipts);
    });
  });
}
