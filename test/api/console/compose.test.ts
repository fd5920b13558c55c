import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

interface ListAnswer {
  id: string;
  requested: number;
  valid: number;
  invalid: number;
  duplicates: number;
  expiresAt: string;
}

const THAI_3_PARTS = 'สวัสดีครับ '.repeat(15); // 165 UTF-16 units: 67 + 67 + 31

/** A body in chunks of `size` bytes, so lines are cut across chunks as on a real socket. */
function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

for (const engine of testEngines()) {
  describe(`compose and send in the console API (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let other: ConsoleActor;
    let accountId: number;

    before(async () => {
      h = await createHarness(engine);
      const account = await h.account({ credits: 1_000, pricePerPart: 2 });
      accountId = account.id;
      owner = await consoleActor(h, 'owner', { account });
      member = await consoleActor(h, 'member', { account });
      other = await consoleActor(h, 'owner');
      await h.sender(accountId, 'NOKSHOP');
      await h.sender(accountId, 'WAITING', 'pending');
      await h.store.addToBlocklist(accountId, ['66800000009'], h.clock.now());
    });
    after(() => h.close());

    async function upload(
      as: ConsoleActor,
      body: string | Readable,
      type = 'text/plain',
    ): Promise<ListAnswer> {
      const response = await as.request({
        method: 'POST',
        url: '/recipient-lists',
        headers: { ...as.headers(), 'content-type': type },
        payload: body,
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as ListAnswer;
    }

    async function balance(): Promise<number> {
      return (await h.store.findAccount(accountId))!.balance;
    }

    const send = (as: ConsoleActor, payload: object) =>
      as.request({ method: 'POST', url: '/messages', payload });

    it('counts an uploaded list of lines: valid, invalid and duplicate, header and blanks skipped', async () => {
      const lines = [
        '\uFEFFphone',
        '0812345678',
        '66812345678', // the same number again
        '',
        '  0812345679\r',
        'not a number',
        '+66812345670',
        '0812345679',
        '0800000009',
      ].join('\n');
      const list = await upload(member, lines);
      assert.deepEqual(
        { ...list, id: undefined, expiresAt: undefined },
        {
          id: undefined,
          expiresAt: undefined,
          requested: 7,
          valid: 3,
          invalid: 2,
          duplicates: 2,
        },
      );
      assert.ok(Date.parse(list.expiresAt) > h.clock.now());
    });

    it('reads lines cut across chunks of the stream the same as whole', async () => {
      const text = Array.from({ length: 500 }, (_, i) => `08${String(10_000_000 + i)}`)
        .concat(['x'.repeat(300), '0812'])
        .join('\r\n');
      for (const size of [1, 7, 64, 4096]) {
        const list = await upload(owner, chunked(text, size));
        assert.deepEqual(
          [list.requested, list.valid, list.invalid, list.duplicates],
          [502, 500, 2, 0],
          `chunks of ${size}`,
        );
      }
    });

    it('reads CSV: quotes, a header naming the number column, ; or tab', async () => {
      const csv = [
        'name,"mobile phone",note',
        '"Somchai, K.",0812345678,"said ""hi"""',
        'Malee,"0812345671",',
        'Niran,0812345678,again',
        'Bad,12345,',
      ].join('\n');
      const list = await upload(member, csv, 'text/csv');
      assert.deepEqual([list.requested, list.valid, list.invalid, list.duplicates], [4, 2, 1, 1]);
      const semicolons = await upload(member, '0812345678;Somchai\n0812345672;Malee\n', 'text/csv');
      assert.deepEqual([semicolons.requested, semicolons.valid], [2, 2]);
    });

    it('refuses what is not a number file, and an empty one', async () => {
      const response = await member.request({
        method: 'POST',
        url: '/recipient-lists',
        headers: { ...member.headers(), 'content-type': 'image/png' },
        payload: Buffer.from('0812345678'),
      });
      expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const empty = await member.request({
        method: 'POST',
        url: '/recipient-lists',
        headers: { ...member.headers(), 'content-type': 'text/plain' },
        payload: '\n\n',
      });
      expectError(empty, 400, 'INVALID_PARAMETER');
    });

    it('refuses a file of more than 2,000,000 numbers with 400 TOO_MANY_NUMBERS, read to its end', async () => {
      const file = Buffer.from('0812345678\n'.repeat(2_000_001));
      const response = await member.request({
        method: 'POST',
        url: '/recipient-lists',
        headers: { ...member.headers(), 'content-type': 'text/plain' },
        payload: file,
      });
      expectError(response, 400, 'TOO_MANY_NUMBERS');
    });

    it('previews a Thai message of three parts with its cost, as it is typed', async () => {
      const response = await member.request({
        method: 'POST',
        url: '/messages/preview-cost',
        payload: { content: THAI_3_PARTS, msisdns: ['0812345678', '0812345679', 'bad'] },
      });
      assert.equal(response.statusCode, 200, response.body);
      const estimate = response.json();
      assert.equal(estimate.parts, 3);
      assert.equal(estimate.characters, 165);
      assert.equal(estimate.recipients.charged, 2);
      assert.equal(estimate.recipients.invalid, 1);
      assert.equal(estimate.cost, 3 * 2 * 2);
      assert.equal(estimate.sufficientCredits, true);
    });

    it('dry run of an uploaded list shows valid, invalid, duplicate and blocklisted counts and charges nothing', async () => {
      const list = await upload(
        member,
        ['0812345678', '0812345678', '0800000009', 'oops', '0812345670'].join('\n'),
      );
      const before = await balance();
      const audit = (await h.store.listAuditEvents({ offset: 0, limit: 1 })).total;
      const response = await send(member, {
        sender: 'NOKSHOP',
        content: 'Hello',
        recipientListId: list.id,
        dryRun: true,
      });
      assert.equal(response.statusCode, 200, response.body);
      const estimate = response.json();
      assert.equal(estimate.dryRun, true);
      assert.deepEqual(estimate.recipients, {
        requested: 5,
        unique: 4,
        duplicates: 1,
        valid: 3,
        invalid: 1,
        blocked: 1,
        charged: 2,
      });
      assert.equal(estimate.cost, 4);
      assert.equal(await balance(), before);
      assert.equal((await h.store.listAuditEvents({ offset: 0, limit: 1 })).total, audit);
    });

    it('a member sends an uploaded list: charged exactly, recorded as theirs, the list used once', async () => {
      const list = await upload(member, '0812345678\n0812345679\n0800000009\n0812345679\n');
      const before = await balance();
      const response = await send(member, {
        sender: 'NOKSHOP',
        content: THAI_3_PARTS,
        recipientListId: list.id,
      });
      assert.equal(response.statusCode, 200, response.body);
      const accepted = response.json();
      assert.equal(accepted.dryRun, false);
      assert.equal(accepted.status, 'pending');
      assert.equal(accepted.scheduledTime, null);
      assert.equal(accepted.recipients.charged, 2);
      assert.equal(accepted.recipients.blocked, 1);
      assert.equal(accepted.cost, 3 * 2 * 2);
      assert.equal(accepted.balance, before - 12);
      assert.equal(await balance(), before - 12);

      const message = await h.store.findMessageByUuid(accepted.uuid);
      assert.equal(message?.accountId, accountId);
      const { items } = await h.store.listAuditEvents({
        offset: 0,
        limit: 1,
        action: 'message.send',
      });
      assert.equal(items[0]?.actorUserId, member.user.id);
      assert.equal(items[0]?.targetId, accepted.uuid);
      assert.equal(items[0]?.detail.cost, 12);

      expectError(
        await send(member, { sender: 'NOKSHOP', content: 'again', recipientListId: list.id }),
        404,
        'NOT_FOUND',
      );
      assert.equal(await balance(), before - 12);
    });

    it('schedules for later: held credits, status scheduled; a past time is refused', async () => {
      const at = new Date(h.clock.now() + 86_400_000).toISOString().replace('Z', '+00:00');
      const response = await send(owner, {
        sender: 'NOKSHOP',
        content: 'Later',
        msisdns: ['0812345678'],
        scheduledTime: at,
      });
      assert.equal(response.statusCode, 200, response.body);
      const accepted = response.json();
      assert.equal(accepted.status, 'scheduled');
      assert.equal(Date.parse(accepted.scheduledTime), Date.parse(at));
      const past = new Date(h.clock.now() - 60_000).toISOString().replace('Z', '+00:00');
      expectError(
        await send(owner, {
          sender: 'NOKSHOP',
          content: 'x',
          msisdns: ['0812345678'],
          scheduledTime: past,
        }),
        400,
        'INVALID_SCHEDULED_TIME',
      );
    });

    it('answers 402 when the credits do not cover the send, and charges nothing', async () => {
      const poor = await h.account({ credits: 1, pricePerPart: 1 });
      const poorOwner = await consoleActor(h, 'owner', { account: poor });
      await h.sender(poor.id, 'POORCO');
      const list = await upload(poorOwner, '0812345678\n0812345679\n');
      const dry = await send(poorOwner, {
        sender: 'POORCO',
        content: 'Hi',
        recipientListId: list.id,
        dryRun: true,
      });
      assert.equal(dry.json().sufficientCredits, false);
      expectError(
        await send(poorOwner, { sender: 'POORCO', content: 'Hi', recipientListId: list.id }),
        402,
        'INSUFFICIENT_CREDITS',
      );
      assert.equal((await h.store.findAccount(poor.id))!.balance, 1);
    });

    it("refuses another account's list, unknown and unapproved senders, and mixed recipients", async () => {
      const list = await upload(member, '0812345678\n');
      expectError(
        await send(other, {
          sender: 'NOKSHOP',
          content: 'x',
          recipientListId: list.id,
          dryRun: true,
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await other.request({
          method: 'POST',
          url: '/messages/preview-cost',
          payload: { content: 'x', recipientListId: list.id },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await send(member, { sender: 'NOSUCH', content: 'x', recipientListId: list.id }),
        400,
        'SENDER_NOT_FOUND',
      );
      expectError(
        await send(member, { sender: 'WAITING', content: 'x', recipientListId: list.id }),
        400,
        'SENDER_NOT_APPROVED',
      );
      expectError(
        await send(member, {
          sender: 'NOKSHOP',
          content: 'x',
          recipientListId: list.id,
          msisdns: ['0812345678'],
        }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await send(member, {
          sender: 'NOKSHOP',
          content: 'x',
          recipientListId: '00000000-0000-4000-8000-000000000000',
        }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await send(member, {
          sender: 'NOKSHOP',
          content: 'x',
          msisdns: Array.from({ length: 10_001 }, () => '0812345678'),
        }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await send(member, { sender: 'NOKSHOP', content: 'x' }),
        400,
        'INVALID_PARAMETER',
      );
    });

    it('composes and sends from a name another account shared with this one, and not once it is suspended', async () => {
      const admin = await consoleActor(h, 'admin');
      const lender = await h.account();
      await h.sender(lender.id, 'LENDERCO');
      const lent = (await h.store.findSenderByName('LENDERCO'))!;
      const shared = await admin.request({
        method: 'POST',
        url: `/admin/senders/${lent.id}/shares`,
        payload: { accountId },
      });
      assert.equal(shared.statusCode, 200, shared.body);

      const senders = await member.request({ method: 'GET', url: '/senders' });
      assert.deepEqual(
        (senders.json().data as { name: string; status: string; shared: boolean }[])
          .filter((s) => s.name === 'LENDERCO')
          .map((s) => [s.status, s.shared]),
        [['approved', true]],
      );
      const message = { sender: 'LENDERCO', content: 'Lent name', msisdns: ['0812345678'] };
      const dry = await send(member, { ...message, dryRun: true });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.equal(dry.json().cost, 2);
      const before = await balance();
      const sent = await send(member, message);
      assert.equal(sent.statusCode, 200, sent.body);
      const stored = await h.store.findMessageByUuid(sent.json().uuid);
      assert.deepEqual([stored?.sender, stored?.accountId], ['LENDERCO', accountId]);
      assert.equal(await balance(), before - 2, 'the borrowing account pays');
      assert.equal((await h.store.findAccount(lender.id))!.balance, 0);

      const suspended = await admin.request({
        method: 'POST',
        url: `/admin/senders/${lent.id}/suspend`,
      });
      assert.equal(suspended.statusCode, 200, suspended.body);
      expectError(await send(member, { ...message, dryRun: true }), 400, 'SENDER_NOT_APPROVED');
      expectError(await send(member, message), 400, 'SENDER_NOT_APPROVED');
      assert.equal(await balance(), before - 2);
    });

    it('lists templates with their placeholders and contact groups with their sizes; sends with both', async () => {
      const template = await h.store.createTemplate({
        accountId,
        name: 'Parcel',
        body: 'Hi {{name}}, parcel {{code}} is here',
        nowMs: h.clock.now(),
      });
      const group = await h.store.createContactGroup({
        accountId,
        name: 'VIP',
        nowMs: h.clock.now(),
      });
      await h.store.addContacts(group.id, ['66812345601', '66812345602']);
      await h.store.createContactGroup({ accountId: other.account!.id, name: 'Theirs', nowMs: 0 });

      const templates = await member.request({ method: 'GET', url: '/templates' });
      assert.equal(templates.statusCode, 200, templates.body);
      assert.deepEqual(templates.json().data, [
        {
          id: template.id,
          name: 'Parcel',
          body: 'Hi {{name}}, parcel {{code}} is here',
          variables: ['name', 'code'],
        },
      ]);
      const groups = await member.request({ method: 'GET', url: '/contact-groups' });
      assert.deepEqual(groups.json().data, [{ id: group.id, name: 'VIP', size: 2 }]);

      const missing = await send(member, {
        sender: 'NOKSHOP',
        templateId: template.id,
        variables: { name: 'Somchai' },
        contactGroupId: group.id,
        dryRun: true,
      });
      expectError(missing, 400, 'TEMPLATE_VARIABLE_MISSING');
      const response = await send(member, {
        sender: 'NOKSHOP',
        templateId: template.id,
        variables: { name: 'Somchai', code: 'A1' },
        contactGroupId: group.id,
        msisdns: ['0812345601', '0812345603'],
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().recipients.charged, 3);
      const message = await h.store.findMessageByUuid(response.json().uuid);
      assert.equal(message?.content, 'Hi Somchai, parcel A1 is here');

      const theirs = await other.request({ method: 'GET', url: '/templates' });
      assert.deepEqual(theirs.json().data, []);
    });
  });
}
