import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Account } from '../../src/domain/accounts/account-store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import type { SenderStatus } from '../../src/domain/statuses.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { expectError } from '../support/security-suite.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

const SEND = '/api/v2/sms/send';

interface Recipient {
  seq: number;
  msisdn: string;
  status: string;
}

for (const engine of testEngines()) {
  describe(`POST /api/v2/sms/send (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const send = (
      c: Customer,
      payload: Record<string, unknown>,
      headers?: Record<string, string>,
    ) =>
      h.request({
        method: 'POST',
        url: SEND,
        key: c.key,
        payload: { sender: c.sender, ...payload },
        headers,
      });

    async function accepted(c: Customer, payload: Record<string, unknown>) {
      const response = await send(c, payload);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    const balanceOf = async (account: Account) => (await h.store.findAccount(account.id))!.balance;

    const ledger = (account: Account) =>
      fromLedger(h.db.database.db)
        .select(['delta', 'reason', 'message_id', 'balance_after'])
        .where('account_id', '=', account.id)
        .orderBy('id')
        .execute();

    async function messageTotal(c: Customer): Promise<number> {
      const list = await h.request({ method: 'GET', url: '/api/v2/sms', key: c.key });
      assert.equal(list.statusCode, 200, list.body);
      return list.json().total;
    }

    async function recipients(c: Customer, uuid: string): Promise<Recipient[]> {
      const page = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}/recipients`,
        key: c.key,
      });
      assert.equal(page.statusCode, 200, page.body);
      return page.json().data;
    }

    /** Snapshot of everything a refused send must leave as it was. */
    async function state(c: Customer) {
      return {
        messages: await messageTotal(c),
        balance: await balanceOf(c.account),
        ledger: await ledger(c.account),
      };
    }

    async function customerWithPrice(pricePerPart: number, credits: number): Promise<Customer> {
      const account = await h.account({ credits, pricePerPart });
      const sender = `P${account.id}x${pricePerPart}`.slice(0, 11);
      await h.sender(account.id, sender);
      return { account, key: (await h.key(account.id)).key, sender };
    }

    describe('numbers', () => {
      it('answers the accepted message with its uuid, refNo, counts, cost and new balance', async () => {
        const c = await h.customer({ credits: 50 });
        const body = await accepted(c, {
          content: 'Hello',
          msisdns: ['0812345678', '66898765432'],
        });
        assert.match(body.uuid, /^[0-9a-f-]{36}$/);
        assert.equal(typeof body.refNo, 'string');
        assert.equal(body.status, 'pending');
        assert.equal(body.sender, c.sender);
        assert.equal(body.parts, 1);
        assert.equal(body.characters, 5);
        assert.equal(body.createdAt, new Date(h.clock.now()).toISOString());
        assert.equal(body.scheduledTime, undefined);
        assert.deepEqual(body.recipients, {
          requested: 2,
          unique: 2,
          duplicates: 0,
          valid: 2,
          invalid: 0,
          blocked: 0,
          charged: 2,
        });
        assert.equal(body.creditsPerPart, 1);
        assert.equal(body.cost, 2);
        assert.equal(body.balance, 48);
        assert.equal(await balanceOf(c.account), 48);
      });

      it('normalises 0XXXXXXXXX to 66XXXXXXXXX and sends a number given in both forms once', async () => {
        const c = await h.customer({ credits: 50 });
        const body = await accepted(c, {
          content: 'Hi',
          msisdns: ['0812345678', '66812345678', '0898765432', '0898765432', '66898765432'],
        });
        assert.equal(body.recipients.requested, 5);
        assert.equal(body.recipients.unique, 2);
        assert.equal(body.recipients.duplicates, 3);
        assert.equal(body.recipients.charged, 2);
        assert.equal(body.cost, 2);
        assert.deepEqual(
          (await recipients(c, body.uuid)).map((r) => r.msisdn),
          ['66812345678', '66898765432'],
        );
      });

      it('keeps malformed numbers as invalid recipients after the valid ones and does not charge them', async () => {
        const c = await h.customer({ credits: 50 });
        const bad = [
          '12345',
          '+66812345678',
          '081234567',
          '08123456789',
          '6681234567a',
          '1812345678',
          '66 812345678',
        ];
        const body = await accepted(c, {
          content: 'Hi',
          msisdns: [bad[0], '0812345678', ...bad.slice(1), '0898765432'],
        });
        assert.equal(body.recipients.valid, 2);
        assert.equal(body.recipients.invalid, bad.length);
        assert.equal(body.recipients.charged, 2);
        assert.equal(body.cost, 2);
        assert.equal(body.balance, 48);
        const rows = await recipients(c, body.uuid);
        assert.deepEqual(
          rows.map((r) => [r.seq, r.msisdn, r.status]),
          [
            [1, '66812345678', 'pending'],
            [2, '66898765432', 'pending'],
            ...bad.map((text, i) => [3 + i, text, 'invalid']),
          ],
        );
      });

      it('keeps a malformed number holding U+0000 as an invalid recipient whose row can be written', async () => {
        const c = await h.customer({ credits: 50 });
        const body = await accepted(c, {
          content: 'Hi',
          msisdns: ['0812345678', '08\u00001', '08\ufffd1'],
        });
        assert.equal(
          body.recipients.invalid,
          1,
          'the two spellings are one invalid text once stored',
        );
        assert.equal(body.recipients.duplicates, 1);
        // Materialise every pending chunk of this database (earlier tests' messages too).
        const cache = new CompactListCache();
        while (
          (await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, h.clock.now())) >
          0
        );
        const rows = await recipients(c, body.uuid);
        assert.deepEqual(
          rows.map((r) => [r.msisdn, r.status]),
          [
            ['66812345678', 'pending'],
            ['08\ufffd1', 'invalid'],
          ],
        );
        const one = await h.request({ method: 'GET', url: `/api/v2/sms/${body.uuid}`, key: c.key });
        assert.equal(one.json().recipients.invalid, 1);
      });

      it('answers 400 INVALID_NUMBER and stores nothing when no number is valid', async () => {
        const c = await h.customer({ credits: 50 });
        const before = await state(c);
        expectError(
          await send(c, { content: 'Hi', msisdns: ['123', '+66812345678'] }),
          400,
          'INVALID_NUMBER',
        );
        assert.deepEqual(await state(c), before);
      });

      it("marks numbers on the account's and the platform's blocklist blocked, without charging them", async () => {
        const c = await h.customer({ credits: 50 });
        const other = await h.customer();
        await h.store.addToBlocklist(c.account.id, ['0811111111'], h.clock.now());
        // A platform-wide entry affects every account of this database: a number no other test uses.
        await h.store.addToBlocklist(0, ['66870000001'], h.clock.now());
        await h.store.addToBlocklist(other.account.id, ['66833333333'], h.clock.now());
        const body = await accepted(c, {
          content: 'Hi',
          msisdns: ['66811111111', '0870000001', '0833333333', 'nope'],
        });
        assert.equal(body.recipients.valid, 3);
        assert.equal(body.recipients.blocked, 2);
        assert.equal(body.recipients.invalid, 1);
        assert.equal(body.recipients.charged, 1, "another account's blocklist does not apply");
        assert.equal(body.cost, 1);
        assert.equal(body.balance, 49);
        assert.deepEqual(
          (await recipients(c, body.uuid)).map((r) => [r.msisdn, r.status]),
          [
            ['66811111111', 'blocked'],
            ['66870000001', 'blocked'],
            ['66833333333', 'pending'],
            ['nope', 'invalid'],
          ],
        );
        const page = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${body.uuid}/recipients`,
          key: c.key,
        });
        const summary = Object.fromEntries(
          page.json().summary.map((s: { status: string; count: number }) => [s.status, s.count]),
        );
        assert.equal(summary.blocked, 2);
        assert.equal(summary.pending, 1);
        assert.equal(summary.invalid, 1);
      });

      it('accepts a send whose every number is blocked as failed, with cost 0 and no ledger row', async () => {
        const c = await h.customer({ credits: 50 });
        await h.store.addToBlocklist(c.account.id, ['66811111111', '66822222222'], h.clock.now());
        const ledgerBefore = await ledger(c.account);
        const body = await accepted(c, { content: 'Hi', msisdns: ['0811111111', '0822222222'] });
        assert.equal(body.status, 'failed');
        assert.equal(body.cost, 0);
        assert.equal(body.recipients.charged, 0);
        assert.equal(body.recipients.blocked, 2);
        assert.equal(body.balance, 50);
        assert.equal(await balanceOf(c.account), 50);
        assert.deepEqual(await ledger(c.account), ledgerBefore);
        const one = await h.request({ method: 'GET', url: `/api/v2/sms/${body.uuid}`, key: c.key });
        assert.equal(one.json().status, 'failed');
        assert.equal(one.json().drSummary.blocked, 2);
      });
    });

    describe('parts and cost', () => {
      const cases: [string, string, number, number][] = [
        ['70 Latin characters', 'a'.repeat(70), 1, 70],
        ['71 Latin characters', 'a'.repeat(71), 2, 71],
        ['134 Latin characters', 'a'.repeat(134), 2, 134],
        ['135 Latin characters', 'a'.repeat(135), 3, 135],
        ['70 Thai characters', 'ก'.repeat(70), 1, 70],
        ['71 Thai characters', 'ข'.repeat(71), 2, 71],
        ['134 Thai characters', 'สวัสดี'.repeat(22) + 'คร', 2, 134],
        ['135 Thai characters', 'ค'.repeat(135), 3, 135],
        // 68 UTF-16 units: still one part.
        ['an emoji ending at unit 68', 'a'.repeat(66) + '😀', 1, 67],
        // 134 units would be 2 parts, but the pair at units 67-68 moves to part 2: 66 + 67 + 1.
        ['an emoji across the 67-unit cut', 'a'.repeat(66) + '😀' + 'b'.repeat(66), 3, 133],
        ['an emoji just before the 67-unit cut', 'a'.repeat(65) + '😀' + 'b'.repeat(67), 2, 133],
      ];
      for (const [name, content, parts, characters] of cases) {
        it(`counts ${parts} part(s) for ${name} and charges parts × recipients`, async () => {
          if (name.startsWith('134 Thai')) assert.equal(content.length, 134);
          const c = await h.customer({ credits: 100 });
          const body = await accepted(c, {
            content,
            msisdns: ['0812345678', '0898765432', '0811111111'],
          });
          assert.equal(body.parts, parts);
          assert.equal(body.characters, characters);
          assert.equal(body.cost, parts * 3);
          assert.equal(body.balance, 100 - parts * 3);
          const one = await h.request({
            method: 'GET',
            url: `/api/v2/sms/${body.uuid}`,
            key: c.key,
          });
          assert.equal(one.json().parts, parts);
          assert.equal(one.json().content, content);
        });
      }

      it("charges the account's price per part", async () => {
        const c = await customerWithPrice(3, 100);
        const body = await accepted(c, {
          content: 'a'.repeat(135),
          msisdns: ['0812345678', '0898765432', 'bad'],
        });
        assert.equal(body.creditsPerPart, 3);
        assert.equal(body.cost, 3 * 2 * 3);
        assert.equal(body.balance, 100 - 18);
        assert.equal(await balanceOf(c.account), 82);
        const balance = await h.request({
          method: 'GET',
          url: '/api/v2/sms/credit/balance',
          key: c.key,
        });
        assert.deepEqual(balance.json(), { balance: 82, creditsPerPart: 3 });
      });

      it('accepts 1,000 characters of content, counted as code points, and refuses 1,001', async () => {
        const c = await h.customer({ credits: 1000 });
        const latin = await accepted(c, { content: 'x'.repeat(1000), msisdns: ['0812345678'] });
        assert.equal(latin.parts, Math.ceil(1000 / 67));
        const emoji = await accepted(c, { content: '😀'.repeat(1000), msisdns: ['0812345678'] });
        assert.equal(emoji.characters, 1000);
        assert.equal(emoji.parts, Math.ceil(2000 / 66));
        const before = await state(c);
        expectError(
          await send(c, { content: 'x'.repeat(1001), msisdns: ['0812345678'] }),
          400,
          'CONTENT_TOO_LONG',
        );
        expectError(
          await send(c, { content: '😀'.repeat(1001), msisdns: ['0812345678'] }),
          400,
          'CONTENT_TOO_LONG',
        );
        assert.deepEqual(await state(c), before);
      });
    });

    describe('templates', () => {
      it('renders templateId with variables and stores the rendered content', async () => {
        const c = await h.customer({ credits: 50 });
        const template = await h.store.createTemplate({
          accountId: c.account.id,
          name: 'otp',
          body: 'Hello {{name}}, your code is {{ code }}. {{name}}!',
          nowMs: h.clock.now(),
        });
        const body = await accepted(c, {
          templateId: template.id,
          variables: { name: 'Ann', code: 4321 },
          msisdns: ['0812345678'],
        });
        const rendered = 'Hello Ann, your code is 4321. Ann!';
        assert.equal(body.characters, rendered.length);
        const one = await h.request({ method: 'GET', url: `/api/v2/sms/${body.uuid}`, key: c.key });
        assert.equal(one.json().content, rendered);
      });

      it('counts parts on the rendered template, not on its body', async () => {
        const c = await h.customer({ credits: 50 });
        const template = await h.store.createTemplate({
          accountId: c.account.id,
          name: 'long',
          body: '{{x}}',
          nowMs: h.clock.now(),
        });
        const body = await accepted(c, {
          templateId: template.id,
          variables: { x: 'y'.repeat(71) },
          msisdns: ['0812345678'],
        });
        assert.equal(body.parts, 2);
        assert.equal(body.cost, 2);
      });

      it('answers 400 TEMPLATE_VARIABLE_MISSING when a placeholder has no variable, storing nothing', async () => {
        const c = await h.customer({ credits: 50 });
        const template = await h.store.createTemplate({
          accountId: c.account.id,
          name: 'two',
          body: 'Hi {{first}} {{last}}',
          nowMs: h.clock.now(),
        });
        const before = await state(c);
        expectError(
          await send(c, {
            templateId: template.id,
            variables: { first: 'A' },
            msisdns: ['0812345678'],
          }),
          400,
          'TEMPLATE_VARIABLE_MISSING',
        );
        expectError(
          await send(c, { templateId: template.id, msisdns: ['0812345678'] }),
          400,
          'TEMPLATE_VARIABLE_MISSING',
        );
        assert.deepEqual(await state(c), before);
      });

      it('refuses variables with content, both content and templateId, and neither', async () => {
        const c = await h.customer({ credits: 50 });
        const template = await h.store.createTemplate({
          accountId: c.account.id,
          name: 'x',
          body: 'Hi',
          nowMs: h.clock.now(),
        });
        const before = await state(c);
        for (const payload of [
          { content: 'Hi {{a}}', variables: { a: 'b' }, msisdns: ['0812345678'] },
          { content: 'Hi', templateId: template.id, msisdns: ['0812345678'] },
          { msisdns: ['0812345678'] },
        ]) {
          expectError(await send(c, payload), 400, 'INVALID_PARAMETER');
        }
        assert.deepEqual(await state(c), before);
      });

      it("answers 403 FORBIDDEN for another account's template and 400 TEMPLATE_NOT_FOUND for an unknown one", async () => {
        const c = await h.customer({ credits: 50 });
        const other = await h.customer();
        const theirs = await h.store.createTemplate({
          accountId: other.account.id,
          name: 't',
          body: 'Secret',
          nowMs: h.clock.now(),
        });
        const before = await state(c);
        expectError(
          await send(c, { templateId: theirs.id, msisdns: ['0812345678'] }),
          403,
          'FORBIDDEN',
        );
        expectError(
          await send(c, { templateId: 987_654_321, msisdns: ['0812345678'] }),
          400,
          'TEMPLATE_NOT_FOUND',
        );
        assert.deepEqual(await state(c), before);
      });
    });

    describe('contact groups', () => {
      async function group(owner: Account, numbers: string[]) {
        const created = await h.store.createContactGroup({
          accountId: owner.id,
          name: 'group',
          nowMs: h.clock.now(),
        });
        if (numbers.length > 0) await h.store.addContacts(created.id, numbers);
        return created.id;
      }

      it('sends to every member of contactGroupId', async () => {
        const c = await h.customer({ credits: 50 });
        const id = await group(c.account, ['0811111111', '66822222222']);
        const body = await accepted(c, { content: 'Hi', contactGroupId: id });
        assert.equal(body.recipients.charged, 2);
        assert.equal(body.cost, 2);
        assert.deepEqual((await recipients(c, body.uuid)).map((r) => r.msisdn).sort(), [
          '66811111111',
          '66822222222',
        ]);
      });

      it('sends the union of msisdns and the group, each number once', async () => {
        const c = await h.customer({ credits: 50 });
        const id = await group(c.account, ['0811111111', '66822222222']);
        const body = await accepted(c, {
          content: 'Hi',
          contactGroupId: id,
          msisdns: ['66811111111', '0833333333'],
        });
        assert.equal(body.recipients.requested, 4);
        assert.equal(body.recipients.unique, 3);
        assert.equal(body.recipients.duplicates, 1);
        assert.equal(body.recipients.charged, 3);
        assert.equal(body.cost, 3);
        assert.deepEqual((await recipients(c, body.uuid)).map((r) => r.msisdn).sort(), [
          '66811111111',
          '66822222222',
          '66833333333',
        ]);
      });

      it('counts a stored group member that is not a valid number as an invalid recipient, not charged', async () => {
        const c = await h.customer({ credits: 50 });
        const id = await group(c.account, ['0811111111', 'not-a-number']);
        const body = await accepted(c, {
          content: 'Hi',
          contactGroupId: id,
          msisdns: ['not-a-number'],
        });
        assert.equal(body.recipients.requested, 3);
        assert.equal(body.recipients.unique, 2);
        assert.equal(body.recipients.duplicates, 1);
        assert.equal(body.recipients.invalid, 1);
        assert.equal(body.recipients.charged, 1);
        assert.equal(body.cost, 1);
        assert.deepEqual(
          (await recipients(c, body.uuid)).map((r) => [r.msisdn, r.status]),
          [
            ['66811111111', 'pending'],
            ['not-a-number', 'invalid'],
          ],
        );
      });

      it("refuses another account's group (403), an unknown group (400) and an empty group (400), storing nothing", async () => {
        const c = await h.customer({ credits: 50 });
        const other = await h.customer();
        const theirs = await group(other.account, ['0811111111']);
        const empty = await group(c.account, []);
        const before = await state(c);
        expectError(await send(c, { content: 'Hi', contactGroupId: theirs }), 403, 'FORBIDDEN');
        expectError(
          await send(c, { content: 'Hi', contactGroupId: 987_654_321 }),
          400,
          'CONTACT_GROUP_NOT_FOUND',
        );
        expectError(
          await send(c, { content: 'Hi', contactGroupId: empty }),
          400,
          'INVALID_PARAMETER',
        );
        assert.deepEqual(await state(c), before);
      });
    });

    describe('scheduledTime', () => {
      it('holds the credits of a future send and answers status scheduled with its scheduledTime', async () => {
        const c = await h.customer({ credits: 50 });
        // The fake clock reads 2026-11-22T12:00:00Z.
        const body = await accepted(c, {
          content: 'Later',
          msisdns: ['0812345678', '0898765432'],
          scheduledTime: '2026-11-23T09:30:00+07:00',
        });
        assert.equal(body.status, 'scheduled');
        assert.equal(body.scheduledTime, '2026-11-23T02:30:00.000Z');
        assert.equal(body.cost, 2);
        assert.equal(body.balance, 48);
        const rows = await ledger(c.account);
        assert.deepEqual(
          rows.map((r) => [r.reason, r.delta]),
          [
            ['top-up', 50],
            ['hold', -2],
          ],
        );
        const one = await h.request({ method: 'GET', url: `/api/v2/sms/${body.uuid}`, key: c.key });
        assert.equal(one.json().status, 'scheduled');
        assert.equal(one.json().scheduledTime, '2026-11-23T02:30:00.000Z');
        assert.equal(one.json().drSummary, undefined);
      });

      it('accepts a scheduledTime one millisecond in the future', async () => {
        const c = await h.customer({ credits: 50 });
        const soon = new Date(h.clock.now() + 1).toISOString();
        assert.equal(
          (await accepted(c, { content: 'x', msisdns: ['0812345678'], scheduledTime: soon }))
            .status,
          'scheduled',
        );
      });

      it('answers 400 INVALID_SCHEDULED_TIME without an offset, in the past, now, or on an impossible date', async () => {
        const c = await h.customer({ credits: 50 });
        const before = await state(c);
        for (const scheduledTime of [
          '2026-11-23T09:30:00',
          '2026-11-23',
          '2026-11-22T11:59:59Z',
          '2025-01-01T00:00:00+07:00',
          new Date(h.clock.now()).toISOString(),
          '2026-02-30T09:00:00+07:00',
          '2026-11-23T24:30:00+07:00',
          '2026-11-23T09:60:00+07:00',
          '2026-13-01T09:00:00+07:00',
          '2026-11-23T09:30:00+25:00',
          'tomorrow',
          '',
        ]) {
          expectError(
            await send(c, { content: 'x', msisdns: ['0812345678'], scheduledTime }),
            400,
            'INVALID_SCHEDULED_TIME',
          );
        }
        assert.deepEqual(await state(c), before);
      });
    });

    describe('dryRun', () => {
      it('answers an estimate and stores nothing: no message, no ledger row, balance unchanged', async () => {
        const c = await h.customer({ credits: 50 });
        await h.store.addToBlocklist(c.account.id, ['66811111111'], h.clock.now());
        const before = await state(c);
        const body = await accepted(c, {
          content: 'a'.repeat(71),
          msisdns: ['0812345678', '0898765432', '0811111111', 'bad', '0812345678'],
          dryRun: true,
        });
        assert.deepEqual(body, {
          dryRun: true,
          parts: 2,
          characters: 71,
          recipients: {
            requested: 5,
            unique: 4,
            duplicates: 1,
            valid: 3,
            invalid: 1,
            blocked: 1,
            charged: 2,
          },
          creditsPerPart: 1,
          cost: 4,
          balance: 50,
          sufficientCredits: true,
        });
        assert.deepEqual(await state(c), before);
        assert.equal(before.messages, 0);
      });

      it('says sufficientCredits false when the estimate exceeds the balance, still with 200', async () => {
        const c = await h.customer({ credits: 1 });
        const body = await accepted(c, {
          content: 'Hi',
          msisdns: ['0812345678', '0898765432'],
          dryRun: true,
        });
        assert.equal(body.cost, 2);
        assert.equal(body.sufficientCredits, false);
        assert.equal(await messageTotal(c), 0);
      });
    });

    describe('credits', () => {
      it('answers 402 INSUFFICIENT_CREDITS when cost exceeds the balance and stores nothing', async () => {
        const c = await h.customer({ credits: 2 });
        const before = await state(c);
        expectError(
          await send(c, { content: 'Hi', msisdns: ['0812345678', '0898765432', '0811111111'] }),
          402,
          'INSUFFICIENT_CREDITS',
        );
        expectError(
          await send(c, {
            content: 'Hi',
            msisdns: ['0812345678', '0898765432', '0811111111'],
            scheduledTime: '2026-12-01T00:00:00Z',
          }),
          402,
          'INSUFFICIENT_CREDITS',
        );
        assert.deepEqual(await state(c), before);
        assert.equal(before.messages, 0);
      });

      it('accepts a send that costs exactly the balance, leaving 0', async () => {
        const c = await h.customer({ credits: 2 });
        const body = await accepted(c, { content: 'Hi', msisdns: ['0812345678', '0898765432'] });
        assert.equal(body.balance, 0);
        expectError(
          await send(c, { content: 'Hi', msisdns: ['0812345678'] }),
          402,
          'INSUFFICIENT_CREDITS',
        );
        assert.equal(await balanceOf(c.account), 0);
        assert.equal(await messageTotal(c), 1);
      });

      it("keeps the ledger's sum equal to the balance after a mix of sends", async () => {
        const c = await h.customer({ credits: 100 });
        await h.store.addToBlocklist(c.account.id, ['66899999999'], h.clock.now());
        await accepted(c, { content: 'a'.repeat(135), msisdns: ['0812345678', '0898765432'] }); // 6
        const scheduled = await accepted(c, {
          content: 'Later',
          msisdns: ['0812345678'],
          scheduledTime: '2026-11-30T00:00:00Z',
        }); // hold 1
        await accepted(c, {
          content: 'Later',
          msisdns: ['0811111111', '0822222222'],
          scheduledTime: '2026-11-30T00:00:00Z',
        }); // hold 2
        const cancel = await h.request({
          method: 'POST',
          url: `/api/v2/sms/${scheduled.uuid}/cancel`,
          key: c.key,
        });
        assert.equal(cancel.statusCode, 200, cancel.body); // refund 1
        await accepted(c, { content: 'x', msisdns: ['0899999999'] }); // all blocked: 0
        await accepted(c, { content: 'x', msisdns: ['0812345678'], dryRun: true }); // 0
        const seven = [
          '0812345670',
          '0812345671',
          '0812345672',
          '0812345673',
          '0812345674',
          '0812345675',
          '0812345676',
        ];
        expectError(
          await send(c, { content: 'x'.repeat(1000), msisdns: seven }),
          402,
          'INSUFFICIENT_CREDITS',
        ); // 105 > 92
        await accepted(c, { content: 'Hi', msisdns: ['0812345678', 'bad'] }); // 1
        for (let i = 0; i < 2; i++) {
          const once = await send(
            c,
            { content: 'Hi', msisdns: ['0812345678'] },
            { 'idempotency-key': 'mix-1' },
          ); // 1, then a replay
          assert.equal(once.statusCode, 200, once.body);
        }
        const balance = await balanceOf(c.account);
        assert.equal(balance, 100 - 6 - 1 - 2 + 1 - 1 - 1);
        assert.equal(await h.store.ledgerSum(c.account.id), balance);
        const rows = await ledger(c.account);
        assert.equal(rows.at(-1)!.balance_after, balance);
        assert.deepEqual(
          rows.map((r) => r.reason),
          ['top-up', 'send', 'hold', 'hold', 'refund', 'send', 'send'],
        );
      });
    });

    describe('senders', () => {
      it('sends from a sender another account shares with this one', async () => {
        const owner = await h.customer();
        const c = await h.customer({ credits: 10 });
        const shared = (await h.store.findSenderByName(owner.sender))!;
        await h.store.shareSender(shared.id, c.account.id, h.clock.now());
        const body = await accepted(
          { ...c, sender: owner.sender },
          { content: 'Hi', msisdns: ['0812345678'] },
        );
        assert.equal(body.sender, owner.sender);
        assert.equal(body.balance, 9, 'the sending account pays, not the owner');
      });

      it('answers 400 SENDER_NOT_APPROVED for a pending, rejected or suspended sender, own or shared', async () => {
        const c = await h.customer({ credits: 10 });
        const owner = await h.customer();
        const before = await state(c);
        for (const status of ['pending', 'rejected', 'suspended'] as SenderStatus[]) {
          const own = `${status.slice(0, 3)}${c.account.id}`;
          await h.sender(c.account.id, own, status);
          expectError(
            await send({ ...c, sender: own }, { content: 'Hi', msisdns: ['0812345678'] }),
            400,
            'SENDER_NOT_APPROVED',
          );
          const theirs = `${status.slice(0, 3)}S${owner.account.id}`;
          await h.sender(owner.account.id, theirs, status);
          await h.store.shareSender(
            (await h.store.findSenderByName(theirs))!.id,
            c.account.id,
            h.clock.now(),
          );
          expectError(
            await send({ ...c, sender: theirs }, { content: 'Hi', msisdns: ['0812345678'] }),
            400,
            'SENDER_NOT_APPROVED',
          );
        }
        assert.deepEqual(await state(c), before);
      });

      it("answers 400 SENDER_NOT_FOUND for an unknown sender and 403 FORBIDDEN for another account's", async () => {
        const c = await h.customer({ credits: 10 });
        const other = await h.customer();
        const before = await state(c);
        expectError(
          await send({ ...c, sender: 'NoSuchName' }, { content: 'Hi', msisdns: ['0812345678'] }),
          400,
          'SENDER_NOT_FOUND',
        );
        expectError(
          await send({ ...c, sender: other.sender }, { content: 'Hi', msisdns: ['0812345678'] }),
          403,
          'FORBIDDEN',
        );
        assert.deepEqual(await state(c), before);
      });

      it('accepts an 11-character sender and refuses a 12-character one', async () => {
        const c = await h.customer({
          credits: 10,
          sender: `Eleven${String(Date.now()).slice(-5)}`,
        });
        assert.equal(c.sender.length, 11);
        await accepted(c, { content: 'Hi', msisdns: ['0812345678'] });
        expectError(
          await send({ ...c, sender: `${c.sender}X` }, { content: 'Hi', msisdns: ['0812345678'] }),
          400,
          'INVALID_PARAMETER',
        );
      });
    });

    describe('refNo and idempotency', () => {
      it('gives each message of an account a distinct, increasing refNo', async () => {
        const c = await h.customer({ credits: 10 });
        const other = await h.customer({ credits: 10 });
        const refNos: string[] = [];
        for (let i = 0; i < 4; i++) {
          refNos.push((await accepted(c, { content: `n${i}`, msisdns: ['0812345678'] })).refNo);
          await accepted(other, { content: `o${i}`, msisdns: ['0812345678'] });
        }
        assert.equal(new Set(refNos).size, 4);
        assert.deepEqual([...refNos].sort(), refNos);
        const numeric = refNos.map((r) => Number(r.replace(/\D/g, '')));
        assert.deepEqual(
          numeric.slice(1).map((n, i) => n - numeric[i]!),
          [1, 1, 1],
          "another account's sends do not take numbers from this account",
        );
        const list = await h.request({
          method: 'GET',
          url: `/api/v2/sms?search=${refNos[2]}`,
          key: c.key,
        });
        assert.deepEqual(
          list.json().data.map((m: { refNo: string }) => m.refNo),
          [refNos[2]],
        );
      });

      it('replays the first answer for the same Idempotency-Key and body, charging once', async () => {
        const c = await h.customer({ credits: 10 });
        const payload = { content: 'Once', msisdns: ['0812345678'] };
        const first = await send(c, payload, { 'idempotency-key': 'order-17' });
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        const again = await send(c, payload, { 'idempotency-key': 'order-17' });
        assert.equal(again.statusCode, 200, again.body);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.deepEqual(again.json(), first.json());
        assert.equal(await balanceOf(c.account), 9);
        assert.equal(await messageTotal(c), 1);
        const before = await state(c);
        expectError(
          await send(c, { ...payload, content: 'Other' }, { 'idempotency-key': 'order-17' }),
          422,
          'IDEMPOTENCY_KEY_REUSED',
        );
        assert.deepEqual(await state(c), before);
      });
    });
  });
}
