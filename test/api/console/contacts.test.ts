import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type {
  ContactGroupList,
  ContactGroupView,
  GroupImportReport,
  MemberPage,
} from '../../../src/api/console/contract/contact-groups.js';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

const csv = (actor: ConsoleActor, url: string, body: string | Buffer) =>
  actor.request({ method: 'POST', url, headers: { 'content-type': 'text/csv' }, payload: body });

for (const engine of testEngines()) {
  describe(`console contact groups (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let stranger: ConsoleActor;

    before(async () => {
      h = await createHarness(engine);
      owner = await consoleActor(h, 'owner');
      member = await consoleActor(h, 'member', { account: owner.account! });
      stranger = await consoleActor(h, 'owner');
    });
    after(() => h.close());

    async function newGroup(actor: ConsoleActor, name: string): Promise<ContactGroupView> {
      return ok(
        await actor.request({ method: 'POST', url: '/contact-groups', payload: { name } }),
        201,
      );
    }

    async function actions(accountId: number): Promise<string[]> {
      const { items } = await h.store.listAuditEvents({ accountId, offset: 0, limit: 100 });
      return items.map((event) => event.action);
    }

    it('lets a member create a group and import a CSV, reporting rejected lines with why and the duplicates', async () => {
      const group = await newGroup(member, '  Customers  ');
      assert.equal(group.name, 'Customers');
      assert.equal(group.size, 0);
      const file = [
        'phone,name',
        '0812345678,Somchai',
        '"66812345679","Malee, B."',
        '',
        '0812345678,again',
        'hello,world',
        '081234567',
        '1812345678',
        '66812345679',
      ].join('\r\n');
      const report = ok<GroupImportReport>(
        await csv(member, `/contact-groups/${group.id}/import`, file),
      );
      assert.deepEqual(report, {
        added: 2,
        alreadyPresent: 0,
        duplicates: 2,
        rejected: 3,
        rejectedLines: [
          { line: 6, value: 'hello', reason: 'not-digits' },
          { line: 7, value: '081234567', reason: 'wrong-length' },
          { line: 8, value: '1812345678', reason: 'wrong-prefix' },
        ],
        memberCount: 2,
      });
      // Importing again adds nothing and says the numbers were already there.
      const again = ok<GroupImportReport>(
        await csv(member, `/contact-groups/${group.id}/import`, '0812345678\n0899999999\n'),
      );
      assert.equal(again.added, 1);
      assert.equal(again.alreadyPresent, 1);
      assert.equal(again.memberCount, 3);
      const list = ok<ContactGroupList>(
        await owner.request({ method: 'GET', url: '/contact-groups' }),
      );
      assert.deepEqual(
        list.data.map((g) => [g.name, g.size]),
        [['Customers', 3]],
      );
      const audited = await actions(owner.account!.id);
      assert.ok(audited.includes('contact-group.create'));
      assert.equal(audited.filter((a) => a === 'contact-group.import').length, 2);
    });

    it('quotes the first 100 rejected lines and counts every one', async () => {
      const group = await newGroup(owner, 'Many bad lines');
      const lines = ['0812345678', ...Array.from({ length: 250 }, (_v, i) => `bad-${i}`)];
      const report = ok<GroupImportReport>(
        await csv(owner, `/contact-groups/${group.id}/import`, lines.join('\n')),
      );
      assert.equal(report.rejected, 250);
      assert.equal(report.rejectedLines.length, 100);
      assert.equal(report.rejectedLines[0]!.line, 2);
      assert.equal(report.rejectedLines[99]!.line, 101);
      assert.equal(report.added, 1);
    });

    it('imports the column a header names, as a name,phone file, the same as the compose upload reads it', async () => {
      const group = await newGroup(member, 'Named column');
      const file = [
        'name,phone,note',
        'Somchai,0812345678,first',
        '"Malee, B.",66812345679,',
        'Niran,081234567,too short',
        'Ploy,,no number',
        'Somchai again,0812345678,',
      ].join('\n');
      const report = ok<GroupImportReport>(
        await csv(member, `/contact-groups/${group.id}/import`, file),
      );
      assert.deepEqual(report, {
        added: 2,
        alreadyPresent: 0,
        duplicates: 1,
        rejected: 1,
        rejectedLines: [{ line: 4, value: '081234567', reason: 'wrong-length' }],
        memberCount: 2,
      });
      const members = ok<MemberPage>(
        await member.request({ method: 'GET', url: `/contact-groups/${group.id}/members` }),
      );
      assert.deepEqual(
        members.data.map((m) => m.msisdn),
        ['66812345678', '66812345679'],
      );
      const upload = await member.request({
        method: 'POST',
        url: '/recipient-lists',
        headers: { 'content-type': 'text/csv' },
        payload: file,
      });
      assert.equal(upload.statusCode, 201, upload.body);
      const list = upload.json() as { valid: number; invalid: number; duplicates: number };
      assert.deepEqual([list.valid, list.invalid, list.duplicates], [2, 1, 1]);
    });

    it('browses and searches members with paging, adds and removes them, renames and deletes the group', async () => {
      const group = await newGroup(member, 'Paging');
      const numbers = Array.from({ length: 120 }, (_v, i) => `08100${String(i).padStart(5, '0')}`);
      ok(await csv(member, `/contact-groups/${group.id}/import`, numbers.join('\n')));
      const first = ok<MemberPage>(
        await member.request({
          method: 'GET',
          url: `/contact-groups/${group.id}/members?limit=50`,
        }),
      );
      assert.equal(first.total, 120);
      assert.equal(first.data.length, 50);
      assert.equal(first.data[0]!.msisdn, '66810000000');
      const last = ok<MemberPage>(
        await member.request({
          method: 'GET',
          url: `/contact-groups/${group.id}/members?limit=50&offset=100`,
        }),
      );
      assert.equal(last.data.length, 20);
      // 0… searches the same number as 66…
      const found = ok<MemberPage>(
        await member.request({
          method: 'GET',
          url: `/contact-groups/${group.id}/members?search=081000011`,
        }),
      );
      assert.deepEqual(
        found.data.map((m) => m.msisdn),
        [
          '66810000110',
          '66810000111',
          '66810000112',
          '66810000113',
          '66810000114',
          '66810000115',
          '66810000116',
          '66810000117',
          '66810000118',
          '66810000119',
        ],
      );
      assert.equal(found.total, 10);
      expectError(
        await member.request({
          method: 'GET',
          url: `/contact-groups/${group.id}/members?search=abc`,
        }),
        400,
        'INVALID_PARAMETER',
      );

      const added = ok<{ added: number; memberCount: number }>(
        await member.request({
          method: 'POST',
          url: `/contact-groups/${group.id}/members`,
          payload: { numbers: ['0899999990', '66899999991', '0810000000'] },
        }),
      );
      assert.deepEqual(added, { added: 2, memberCount: 122 });
      const removed = ok<{ removed: number; memberCount: number }>(
        await member.request({
          method: 'DELETE',
          url: `/contact-groups/${group.id}/members`,
          payload: { numbers: ['0899999990', '0800000001'] },
        }),
      );
      assert.deepEqual(removed, { removed: 1, memberCount: 121 });

      ok(
        await member.request({
          method: 'PATCH',
          url: `/contact-groups/${group.id}`,
          payload: { name: 'Renamed' },
        }),
      );
      const read = ok<{ name: string; size: number }>(
        await member.request({ method: 'GET', url: `/contact-groups/${group.id}` }),
      );
      assert.deepEqual(read, { id: group.id, name: 'Renamed', size: 121 });
      const deleted = ok<{ members: number }>(
        await member.request({ method: 'DELETE', url: `/contact-groups/${group.id}` }),
      );
      assert.equal(deleted.members, 121);
      expectError(
        await member.request({ method: 'GET', url: `/contact-groups/${group.id}` }),
        404,
        'NOT_FOUND',
      );
      assert.equal(await h.store.contactCount(group.id), 0);
      const audited = await actions(owner.account!.id);
      for (const action of [
        'contact-group.add-members',
        'contact-group.remove-members',
        'contact-group.rename',
        'contact-group.delete',
      ]) {
        assert.ok(audited.includes(action), action);
      }
    });

    it("refuses another account's group on every route, and changes nothing", async () => {
      const group = await newGroup(owner, 'Private');
      ok(await csv(owner, `/contact-groups/${group.id}/import`, '0812345678\n'));
      const before = await h.store.listAuditEvents({ offset: 0, limit: 1 });
      for (const [method, url, payload] of [
        ['GET', `/contact-groups/${group.id}`, undefined],
        ['GET', `/contact-groups/${group.id}/members`, undefined],
        ['PATCH', `/contact-groups/${group.id}`, { name: 'Mine' }],
        ['DELETE', `/contact-groups/${group.id}`, undefined],
        ['POST', `/contact-groups/${group.id}/members`, { numbers: ['0811111111'] }],
        ['DELETE', `/contact-groups/${group.id}/members`, { numbers: ['0812345678'] }],
      ] as const) {
        expectError(await stranger.request({ method, url, payload }), 403, 'FORBIDDEN');
      }
      expectError(
        await csv(stranger, `/contact-groups/${group.id}/import`, '0811111111\n'),
        403,
        'FORBIDDEN',
      );
      const list = ok<ContactGroupList>(
        await stranger.request({ method: 'GET', url: '/contact-groups' }),
      );
      assert.ok(list.data.every((g) => g.id !== group.id));
      assert.deepEqual(await h.store.contactNumbers(group.id), ['66812345678']);
      assert.equal((await h.store.findContactGroup(group.id))!.name, 'Private');
      const after = await h.store.listAuditEvents({ offset: 0, limit: 1 });
      assert.equal(after.total, before.total);
    });

    it('answers bad input with { error, code } and changes nothing', async () => {
      const group = await newGroup(owner, 'Strict');
      expectError(
        await owner.request({ method: 'POST', url: '/contact-groups', payload: { name: '  ' } }),
        400,
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/contact-groups',
          payload: { name: 'x'.repeat(101) },
        }),
        400,
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: `/contact-groups/${group.id}/members`,
          payload: { numbers: ['0812345678', '12345'] },
        }),
        400,
        'INVALID_NUMBER',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: `/contact-groups/${group.id}/import`,
          payload: { numbers: ['0812345678'] },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(
        await csv(owner, `/contact-groups/${group.id}/import`, '0812345678\n"0812345679\n'),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await owner.request({ method: 'GET', url: '/contact-groups/999999' }),
        404,
        'NOT_FOUND',
      );
      expectError(await owner.request({ method: 'GET', url: '/contact-groups/abc' }), 404);
      assert.equal(await h.store.contactCount(group.id), 0);
    });

    it('sends to a group through /api/v2 after it was filled from the console', async () => {
      const customer = await h.customer({ credits: 100 });
      const actor = await consoleActor(h, 'member', { account: customer.account });
      const group = await newGroup(actor, 'Send to me');
      ok(await csv(actor, `/contact-groups/${group.id}/import`, '0812345678\n0812345679\n'));
      const response = await h.app.inject({
        method: 'POST',
        url: '/api/v2/sms/send',
        headers: { 'x-api-key': customer.key },
        payload: { sender: customer.sender, content: 'hi', contactGroupId: group.id, dryRun: true },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.body, /"recipients"|"valid"|2/);
    });
  });
}
