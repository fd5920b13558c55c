import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { BlocklistPage } from '../../../src/api/console/contract/blocklist.js';
import type { NumberImportReport } from '../../../src/api/console/contract/number-imports.js';
import type {
  TemplateList,
  TemplatePreview,
  TemplateView,
} from '../../../src/api/console/contract/templates.js';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

for (const engine of testEngines()) {
  describe(`console templates and blocklist (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let stranger: ConsoleActor;
    let admin: ConsoleActor;

    before(async () => {
      h = await createHarness(engine);
      owner = await consoleActor(h, 'owner');
      member = await consoleActor(h, 'member', { account: owner.account! });
      stranger = await consoleActor(h, 'owner');
      admin = await consoleActor(h, 'admin');
    });
    after(() => h.close());

    async function actions(accountId: number | null): Promise<string[]> {
      const { items } = await h.store.listAuditEvents({
        ...(accountId !== null && { accountId }),
        offset: 0,
        limit: 200,
      });
      return items.map((event) => event.action);
    }

    it('lets a member create, list, edit and delete templates with their placeholders, audited', async () => {
      const created = ok<TemplateView>(
        await member.request({
          method: 'POST',
          url: '/templates',
          payload: { name: 'OTP', body: 'รหัสของ {{name}} คือ {{code}} ({{name}})' },
        }),
        201,
      );
      assert.deepEqual(created.variables, ['name', 'code']);
      const list = ok<TemplateList>(await owner.request({ method: 'GET', url: '/templates' }));
      assert.deepEqual(
        list.data.map((t) => t.name),
        ['OTP'],
      );
      const edited = ok<TemplateView>(
        await member.request({
          method: 'PUT',
          url: `/templates/${created.id}`,
          payload: { name: 'OTP 2', body: 'Code {{code}}' },
        }),
      );
      assert.deepEqual(edited, {
        id: created.id,
        name: 'OTP 2',
        body: 'Code {{code}}',
        variables: ['code'],
      });
      const read = ok<TemplateView>(
        await member.request({ method: 'GET', url: `/templates/${created.id}` }),
      );
      assert.equal(read.body, 'Code {{code}}');
      ok(await member.request({ method: 'DELETE', url: `/templates/${created.id}` }));
      expectError(
        await member.request({ method: 'GET', url: `/templates/${created.id}` }),
        404,
        'NOT_FOUND',
      );
      const audited = await actions(owner.account!.id);
      for (const action of ['template.create', 'template.update', 'template.delete']) {
        assert.ok(audited.includes(action), action);
      }
    });

    it('previews a Thai template as send fills it, with characters and parts as charged', async () => {
      const preview = ok<TemplatePreview>(
        await member.request({
          method: 'POST',
          url: '/templates/preview',
          payload: { body: 'สวัสดี {{name}} รหัส {{code}}', variables: { name: 'สมชาย' } },
        }),
      );
      assert.deepEqual(preview, {
        text: 'สวัสดี สมชาย รหัส {{code}}',
        variables: ['name', 'code'],
        missing: ['code'],
        characters: 26,
        parts: 1,
      });
    });

    it('counts a name in characters as the form does: 100 emoji are a name, 101 are too long', async () => {
      const emoji = '\u{1F600}';
      const created = ok<TemplateView>(
        await owner.request({
          method: 'POST',
          url: '/templates',
          payload: { name: emoji.repeat(100), body: 'Hello' },
        }),
        201,
      );
      assert.equal(created.name, emoji.repeat(100));
      expectError(
        await owner.request({
          method: 'PUT',
          url: `/templates/${created.id}`,
          payload: { name: emoji.repeat(101), body: 'Hello' },
        }),
        400,
      );
      const group = await owner.request({
        method: 'POST',
        url: '/contact-groups',
        payload: { name: emoji.repeat(100) },
      });
      assert.equal(group.statusCode, 201, group.body);
      ok(await owner.request({ method: 'DELETE', url: `/templates/${created.id}` }));
    });

    it("refuses another account's template and bad input, changing nothing", async () => {
      const mine = ok<TemplateView>(
        await owner.request({
          method: 'POST',
          url: '/templates',
          payload: { name: 'Mine', body: 'Hello' },
        }),
        201,
      );
      expectError(
        await stranger.request({ method: 'GET', url: `/templates/${mine.id}` }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await stranger.request({
          method: 'PUT',
          url: `/templates/${mine.id}`,
          payload: { name: 'x', body: 'y' },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await stranger.request({ method: 'DELETE', url: `/templates/${mine.id}` }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/templates',
          payload: { name: 'x', body: '' },
        }),
        400,
      );
      expectError(
        await owner.request({
          method: 'PUT',
          url: `/templates/${mine.id}`,
          payload: { name: 'x', body: 'y'.repeat(1001) },
        }),
        400,
      );
      expectError(
        await owner.request({
          method: 'PUT',
          url: `/templates/${mine.id}`,
          payload: { name: '   ', body: 'y' },
        }),
        400,
      );
      assert.deepEqual(await h.store.findTemplate(mine.id), {
        id: mine.id,
        accountId: owner.account!.id,
        name: 'Mine',
        body: 'Hello',
      });
      const list = ok<TemplateList>(await stranger.request({ method: 'GET', url: '/templates' }));
      assert.equal(list.data.length, 0);
    });

    it('lets a member add, import, search and remove account entries; platform entries are read-only to them', async () => {
      ok(
        await admin.request({
          method: 'POST',
          url: '/admin/blocklist',
          payload: { numbers: ['0870000001'] },
        }),
      );
      const added = ok<{ added: number }>(
        await member.request({
          method: 'POST',
          url: '/blocklist',
          payload: { numbers: ['0811111111', '66811111112', '0811111111'] },
        }),
      );
      assert.equal(added.added, 2);
      const report = ok<NumberImportReport>(
        await member.request({
          method: 'POST',
          url: '/blocklist/import',
          headers: { 'content-type': 'text/plain' },
          payload: 'number\n0811111111\n0822222222\n0822222222\noops\n',
        }),
      );
      assert.deepEqual(report, {
        added: 1,
        alreadyPresent: 1,
        duplicates: 1,
        rejected: 1,
        rejectedLines: [{ line: 5, value: 'oops', reason: 'not-digits' }],
      });
      const page = ok<BlocklistPage>(
        await member.request({ method: 'GET', url: '/blocklist?search=0811' }),
      );
      assert.deepEqual(
        page.data.map((e) => e.msisdn),
        ['66811111111', '66811111112'],
      );
      assert.equal(page.total, 2);
      const platform = ok<BlocklistPage>(
        await member.request({ method: 'GET', url: '/blocklist/platform' }),
      );
      assert.deepEqual(
        platform.data.map((e) => e.msisdn),
        ['66870000001'],
      );

      // A customer cannot change platform entries: not through the admin routes, and their own
      // remove only touches their own list.
      expectError(
        await owner.request({
          method: 'DELETE',
          url: '/admin/blocklist',
          payload: { numbers: ['0870000001'] },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/admin/blocklist',
          payload: { numbers: ['0870000002'] },
        }),
        403,
        'FORBIDDEN',
      );
      const notTheirs = ok<{ removed: number }>(
        await owner.request({
          method: 'DELETE',
          url: '/blocklist',
          payload: { numbers: ['0870000001'] },
        }),
      );
      assert.equal(notTheirs.removed, 0);
      assert.ok((await h.store.blockedNumbers(stranger.account!.id)).has('66870000001'));

      const removed = ok<{ removed: number }>(
        await member.request({
          method: 'DELETE',
          url: '/blocklist',
          payload: { numbers: ['0811111111'] },
        }),
      );
      assert.equal(removed.removed, 1);
      // Another account sees neither the entries nor their count.
      const theirs = ok<BlocklistPage>(
        await stranger.request({ method: 'GET', url: '/blocklist' }),
      );
      assert.equal(theirs.total, 0);
      const audited = await actions(owner.account!.id);
      for (const action of ['blocklist.add', 'blocklist.import', 'blocklist.remove']) {
        assert.ok(audited.includes(action), action);
      }
    });

    it('imports into the blocklist the column a header names, as a name,phone file', async () => {
      const report = ok<NumberImportReport>(
        await stranger.request({
          method: 'POST',
          url: '/blocklist/import',
          headers: { 'content-type': 'text/csv' },
          payload: 'name,phone\r\nSomchai,0833333331\r\n"Malee, B.",66833333332\r\nNiran,nope\r\n',
        }),
      );
      assert.deepEqual(report, {
        added: 2,
        alreadyPresent: 0,
        duplicates: 0,
        rejected: 1,
        rejectedLines: [{ line: 4, value: 'nope', reason: 'not-digits' }],
      });
      assert.deepEqual(
        [...(await h.store.blockedNumbers(stranger.account!.id))].filter((n) =>
          n.startsWith('66833'),
        ),
        ['66833333331', '66833333332'],
      );
    });

    it('lets an admin add, import, search and remove platform entries', async () => {
      const report = ok<NumberImportReport>(
        await admin.request({
          method: 'POST',
          url: '/admin/blocklist/import',
          headers: { 'content-type': 'text/csv' },
          payload: '0880000001,spam\n0880000002,spam\n',
        }),
      );
      assert.equal(report.added, 2);
      const page = ok<BlocklistPage>(
        await admin.request({ method: 'GET', url: '/admin/blocklist?search=88000' }),
      );
      assert.equal(page.total, 2);
      ok(
        await admin.request({
          method: 'DELETE',
          url: '/admin/blocklist',
          payload: { numbers: ['0880000001'] },
        }),
      );
      const after = ok<BlocklistPage>(
        await member.request({ method: 'GET', url: '/blocklist/platform?search=88000' }),
      );
      assert.deepEqual(
        after.data.map((e) => e.msisdn),
        ['66880000002'],
      );
      const audited = await actions(null);
      assert.ok(audited.includes('blocklist.import'));
    });

    it('answers bad blocklist input with { error, code } and changes nothing', async () => {
      const before = await h.store.blockedNumbers(owner.account!.id);
      expectError(
        await owner.request({
          method: 'POST',
          url: '/blocklist',
          payload: { numbers: ['0812345678', '+66812345678'] },
        }),
        400,
        'INVALID_NUMBER',
      );
      expectError(
        await owner.request({ method: 'POST', url: '/blocklist', payload: { numbers: [] } }),
        400,
      );
      expectError(
        await owner.request({ method: 'POST', url: '/blocklist/import', payload: { a: 1 } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await owner.request({ method: 'GET', url: '/blocklist?limit=1000' }), 400);
      assert.deepEqual(await h.store.blockedNumbers(owner.account!.id), before);
    });
  });
}
