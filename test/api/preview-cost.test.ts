import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { expectError } from '../support/security-suite.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

const PREVIEW = '/api/v2/sms/preview-cost';

for (const engine of testEngines()) {
  describe(`POST /api/v2/sms/preview-cost (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const preview = (c: Customer, payload: Record<string, unknown>) =>
      h.request({ method: 'POST', url: PREVIEW, key: c.key, payload });

    async function estimate(c: Customer, payload: Record<string, unknown>) {
      const response = await preview(c, payload);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    /** Messages, balance and ledger: everything a preview must leave alone. */
    async function state(c: Customer) {
      const list = await h.request({ method: 'GET', url: '/api/v2/sms', key: c.key });
      const ledgerRows = await fromLedger(h.db.database.db)
        .select(['id'])
        .where('account_id', '=', c.account.id)
        .execute();
      return {
        messages: list.json().total,
        balance: (await h.store.findAccount(c.account.id))!.balance,
        ledgerRows: ledgerRows.length,
        ledgerSum: await h.store.ledgerSum(c.account.id),
      };
    }

    it('answers parts, characters, recipients, cost, balance and sufficientCredits', async () => {
      const c = await h.customer({ credits: 10 });
      const body = await estimate(c, { content: 'Hello', msisdns: ['0812345678', '66898765432'] });
      assert.deepEqual(body, {
        parts: 1,
        characters: 5,
        recipients: {
          requested: 2,
          unique: 2,
          duplicates: 0,
          valid: 2,
          invalid: 0,
          blocked: 0,
          charged: 2,
        },
        creditsPerPart: 1,
        cost: 2,
        balance: 10,
        sufficientCredits: true,
      });
    });

    const parts: [string, string, number, number][] = [
      ['70 Latin characters', 'a'.repeat(70), 1, 70],
      ['71 Latin characters', 'a'.repeat(71), 2, 71],
      ['134 Thai characters', 'ท'.repeat(134), 2, 134],
      ['135 Thai characters', 'ท'.repeat(135), 3, 135],
      ['an emoji across the 67-unit cut', 'a'.repeat(66) + '😀' + 'b'.repeat(66), 3, 133],
      ['1,001 characters (over the send limit)', 'x'.repeat(1001), 15, 1001],
      ['2,000 Latin characters', 'x'.repeat(2000), 30, 2000],
      // 2,000 code points, 4,000 UTF-16 units, cut every 66 so no pair is split.
      ['2,000 emoji', '😀'.repeat(2000), 61, 2000],
    ];
    for (const [name, content, expectedParts, characters] of parts) {
      it(`counts ${expectedParts} part(s) for ${name}`, async () => {
        const c = await h.customer({ credits: 10 });
        const body = await estimate(c, { content, msisdns: ['0812345678', '0898765432'] });
        assert.equal(body.parts, expectedParts);
        assert.equal(body.characters, characters);
        assert.equal(body.cost, expectedParts * 2);
        assert.equal(body.sufficientCredits, expectedParts * 2 <= 10);
      });
    }

    it('refuses 2,001 characters with 400 CONTENT_TOO_LONG', async () => {
      const c = await h.customer();
      expectError(
        await preview(c, { content: 'x'.repeat(2001), msisdns: ['0812345678'] }),
        400,
        'CONTENT_TOO_LONG',
      );
      expectError(
        await preview(c, { content: 'ก'.repeat(2001), msisdns: ['0812345678'] }),
        400,
        'CONTENT_TOO_LONG',
      );
    });

    it('estimates a template filled with variables', async () => {
      const c = await h.customer({ credits: 10 });
      const template = await h.store.createTemplate({
        accountId: c.account.id,
        name: 'promo',
        body: 'Dear {{name}}, {{offer}}',
        nowMs: h.clock.now(),
      });
      const body = await estimate(c, {
        templateId: template.id,
        variables: { name: 'Somchai', offer: 'z'.repeat(60) },
        msisdns: ['0812345678'],
      });
      assert.equal(body.characters, 'Dear Somchai, '.length + 60);
      assert.equal(body.parts, 2);
      assert.equal(body.cost, 2);
      expectError(
        await preview(c, {
          templateId: template.id,
          variables: { name: 'A' },
          msisdns: ['0812345678'],
        }),
        400,
        'TEMPLATE_VARIABLE_MISSING',
      );
      expectError(
        await preview(c, { content: 'Hi', templateId: template.id, msisdns: ['0812345678'] }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(await preview(c, { msisdns: ['0812345678'] }), 400, 'INVALID_PARAMETER');
      expectError(
        await preview(c, { templateId: 987_654, msisdns: ['0812345678'] }),
        400,
        'TEMPLATE_NOT_FOUND',
      );
    });

    it('estimates a contact group, joined with msisdns, each number once', async () => {
      const c = await h.customer({ credits: 10 });
      const group = await h.store.createContactGroup({
        accountId: c.account.id,
        name: 'vip',
        nowMs: h.clock.now(),
      });
      await h.store.addContacts(group.id, ['0811111111', '66822222222', '0833333333']);
      const alone = await estimate(c, { content: 'Hi', contactGroupId: group.id });
      assert.equal(alone.recipients.charged, 3);
      assert.equal(alone.cost, 3);
      const joined = await estimate(c, {
        content: 'Hi',
        contactGroupId: group.id,
        msisdns: ['66811111111', '0844444444'],
      });
      assert.equal(joined.recipients.requested, 5);
      assert.equal(joined.recipients.unique, 4);
      assert.equal(joined.recipients.duplicates, 1);
      assert.equal(joined.cost, 4);
      expectError(
        await preview(c, { content: 'Hi', contactGroupId: 987_654 }),
        400,
        'CONTACT_GROUP_NOT_FOUND',
      );
    });

    it('does not charge blocked or invalid numbers', async () => {
      const c = await h.customer({ credits: 10 });
      await h.store.addToBlocklist(c.account.id, ['66811111111'], h.clock.now());
      const body = await estimate(c, {
        content: 'a'.repeat(71),
        msisdns: ['0811111111', '0822222222', 'not-a-number', '0822222222'],
      });
      assert.deepEqual(body.recipients, {
        requested: 4,
        unique: 3,
        duplicates: 1,
        valid: 2,
        invalid: 1,
        blocked: 1,
        charged: 1,
      });
      assert.equal(body.cost, 2);
    });

    it("uses the account's price per part", async () => {
      const account = await h.account({ credits: 100, pricePerPart: 3 });
      const c: Customer = { account, key: (await h.key(account.id, ['sms:read'])).key, sender: '' };
      const body = await estimate(c, {
        content: 'a'.repeat(71),
        msisdns: ['0812345678', '0898765432'],
      });
      assert.equal(body.creditsPerPart, 3);
      assert.equal(body.cost, 2 * 2 * 3);
    });

    it('says sufficientCredits true up to the balance and false above it', async () => {
      const c = await h.customer({ credits: 3 });
      const three = ['0811111111', '0822222222', '0833333333'];
      const exact = await estimate(c, { content: 'Hi', msisdns: three });
      assert.deepEqual([exact.cost, exact.balance, exact.sufficientCredits], [3, 3, true]);
      const over = await estimate(c, { content: 'Hi', msisdns: [...three, '0844444444'] });
      assert.deepEqual([over.cost, over.balance, over.sufficientCredits], [4, 3, false]);
    });

    it('consumes nothing: no message, no ledger row, the balance unchanged', async () => {
      const c = await h.customer({ credits: 5 });
      const before = await state(c);
      for (let i = 0; i < 3; i++)
        await estimate(c, { content: 'x'.repeat(500), msisdns: ['0812345678', '0898765432'] });
      await estimate(c, {
        content: 'Hi',
        msisdns: Array.from({ length: 50 }, (_, i) => `08100000${String(i).padStart(2, '0')}`),
      });
      assert.deepEqual(await state(c), before);
    });

    it('refuses a preview with no numbers with 400', async () => {
      const c = await h.customer({ credits: 5 });
      const group = await h.store.createContactGroup({
        accountId: c.account.id,
        name: 'empty',
        nowMs: h.clock.now(),
      });
      expectError(await preview(c, { content: 'Hi' }), 400, 'INVALID_PARAMETER');
      expectError(await preview(c, { content: 'Hi', msisdns: [] }), 400, 'INVALID_PARAMETER');
      expectError(
        await preview(c, { content: 'Hi', contactGroupId: group.id }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await preview(c, { content: 'Hi', msisdns: ['123', '+66812345678'] }),
        400,
        'INVALID_NUMBER',
      );
    });
  });
}
