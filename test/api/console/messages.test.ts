import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Credits } from '../../../src/api/console/contract/credits.js';
import type {
  CancelledMessage,
  MessageDetail,
  MessageList,
  RecipientPage,
} from '../../../src/api/console/contract/messages.js';
import { CompactListCache } from '../../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../../src/scheduler/materialise-recipients.js';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';

const DAY_MS = 86_400_000;

async function json<T>(actor: ConsoleActor, url: string): Promise<T> {
  const response = await actor.request({ method: 'GET', url });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as T;
}

/** n distinct valid numbers from `start`. */
function numbers(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => `66${String(810000000 + start + i)}`);
}

for (const engine of testEngines()) {
  describe(`console messages (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let key: string;
    let sender: string;

    before(async () => {
      // The list's date window moves the clock by days: sessions outlive it.
      h = await createHarness(engine, {
        sessionLimits: { idleMs: 365 * DAY_MS, absoluteMs: 365 * DAY_MS },
      });
      const customer = await h.customer({ credits: 100_000 });
      key = customer.key;
      sender = customer.sender;
      owner = await consoleActor(h, 'owner', { account: customer.account });
      member = await consoleActor(h, 'member', { account: customer.account });
    });
    after(() => h.close());

    const send = (payload: Record<string, unknown>) =>
      h.send<{ uuid: string; refNo: string; cost: number }>({ key }, { sender, ...payload });

    it('lists with every filter of GET /api/v2/sms and pages, for a member as for an owner', async () => {
      const otherSender = `Ot${Date.now() % 1e6}`;
      await h.sender(owner.account!.id, otherSender);
      const startMs = h.clock.now();
      const first = await send({ content: 'Harvest festival invitation', msisdns: numbers(2) });
      h.clock.advance(DAY_MS);
      const second = await h.send<{ uuid: string; refNo: string }>(
        { key },
        { sender: otherSender, content: 'Payment reminder', msisdns: numbers(3) },
      );
      const scheduled = await send({
        content: 'Scheduled notice',
        msisdns: numbers(1),
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      });

      const all = await json<MessageList>(member, '/messages?limit=2');
      assert.equal(all.total, 3);
      assert.equal(all.totalPages, 2);
      assert.deepEqual(
        all.data.map((m) => m.uuid),
        [scheduled.uuid, second.uuid],
      );
      const page2 = await json<MessageList>(member, '/messages?limit=2&page=2');
      assert.deepEqual(
        page2.data.map((m) => m.uuid),
        [first.uuid],
      );

      const bySender = await json<MessageList>(owner, `/messages?sender=${otherSender}`);
      assert.deepEqual(
        bySender.data.map((m) => m.uuid),
        [second.uuid],
      );
      const byStatus = await json<MessageList>(owner, '/messages?status=scheduled');
      assert.deepEqual(
        byStatus.data.map((m) => m.uuid),
        [scheduled.uuid],
      );
      const byContent = await json<MessageList>(owner, '/messages?search=FESTIVAL');
      assert.deepEqual(
        byContent.data.map((m) => m.uuid),
        [first.uuid],
      );
      const byRef = await json<MessageList>(
        owner,
        `/messages?search=${encodeURIComponent(second.refNo)}`,
      );
      assert.ok(byRef.data.some((m) => m.uuid === second.uuid));
      // The first day only: from its first millisecond to its last, both inclusive.
      const from = new Date(startMs).toISOString();
      const to = new Date(startMs + DAY_MS - 1).toISOString();
      const window = await json<MessageList>(owner, `/messages?from=${from}&to=${to}`);
      assert.deepEqual(
        window.data.map((m) => m.uuid),
        [first.uuid],
      );
      expectError(
        await owner.request({ method: 'GET', url: `/messages?from=${to}&to=${from}` }),
        400,
      );
      expectError(await owner.request({ method: 'GET', url: '/messages?status=lost' }), 400);
      expectError(await owner.request({ method: 'GET', url: '/messages?limit=101' }), 400);
    });

    it('shows one message with live counts, and answers 304 with no body while nothing changed', async () => {
      const sent = await send({ content: 'Counts', msisdns: [...numbers(3, 100), '12345'] });
      const url = `/messages/${sent.uuid}`;
      const first = await owner.request({ method: 'GET', url });
      assert.equal(first.statusCode, 200, first.body);
      const detail = first.json() as MessageDetail;
      assert.equal(detail.counts.pending, 3);
      assert.equal(detail.counts.invalid, 1);
      assert.equal(detail.final, false);
      assert.equal(detail.drSummary, undefined);
      const etag = first.headers.etag as string;
      assert.ok(etag);
      assert.match(String(first.headers['cache-control']), /no-cache/);

      const idle = await owner.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(idle.statusCode, 304);
      assert.equal(idle.body, '');

      const scheduled = await send({
        content: 'Later',
        msisdns: numbers(1, 200),
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      });
      const before = await owner.request({ method: 'GET', url: `/messages/${scheduled.uuid}` });
      const cancel = await owner.request({
        method: 'POST',
        url: `/messages/${scheduled.uuid}/cancel`,
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      const moved = await owner.request({
        method: 'GET',
        url: `/messages/${scheduled.uuid}`,
        headers: { 'if-none-match': before.headers.etag as string },
      });
      assert.equal(moved.statusCode, 200);
      const cancelled = moved.json() as MessageDetail;
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.final, true);
    });

    it('versions the message page by all it says: any change of the body is a new ETag, never a 304', async () => {
      const sent = await send({ content: 'Versions', msisdns: numbers(3, 150) });
      const url = `/messages/${sent.uuid}`;
      const read = async (etag?: string) =>
        owner.request({
          method: 'GET',
          url,
          headers: etag === undefined ? {} : { 'if-none-match': etag },
        });
      const first = await read();
      assert.equal(first.statusCode, 200, first.body);
      const etag = first.headers.etag as string;
      assert.equal((await read(etag)).statusCode, 304);

      // A change the page shows, written without touching the message's own status or
      // updated_at: the version follows the body, not a list of columns someone kept up to date.
      const completedAt = h.clock.now() + 1234;
      await h.db.database.db
        .updateTable('messages')
        .set({ completed_at: completedAt })
        .where('uuid', '=', sent.uuid)
        .execute();
      const changed = await read(etag);
      assert.equal(changed.statusCode, 200, 'a changed body is not answered 304');
      assert.equal(
        (changed.json() as MessageDetail).completedAt,
        new Date(completedAt).toISOString(),
      );
      assert.notEqual(changed.headers.etag, etag);
      assert.equal((await read(changed.headers.etag as string)).statusCode, 304);
    });

    it('shows a cancelled message’s recipients as failed, never queued, in both APIs, rows and compact list alike', async () => {
      const valid = numbers(5, 400);
      const scheduled = await send({
        content: 'Never sent',
        msisdns: [...valid, '12345'],
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      });
      // Three recipients as rows, the rest still in the compact list.
      const cache = new CompactListCache();
      while (
        (await h.store.findMessageByUuid(scheduled.uuid))!.materialisedUpto < 3 &&
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 3, h.clock.now())) > 0
      );
      const balanceBefore = (await json<Credits>(owner, '/credits')).balance;
      const cancelled = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${scheduled.uuid}/cancel`,
        key,
      });
      assert.equal(cancelled.statusCode, 200, cancelled.body);

      const api = async (query = '') => {
        const response = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${scheduled.uuid}/recipients${query}`,
          key,
        });
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as {
          data: { msisdn: string; status: string }[];
          summary: { status: string; count: number }[];
          total: number;
        };
      };
      const all = await api();
      assert.deepEqual(
        all.data.map((r) => r.status),
        ['failed', 'failed', 'failed', 'failed', 'failed', 'invalid'],
      );
      const summary = Object.fromEntries(all.summary.map((s) => [s.status, s.count]));
      assert.equal(summary.pending, 0);
      assert.equal(summary.failed, 5);
      assert.equal(summary.invalid, 1);
      const pending = await api('?status=pending');
      assert.deepEqual([pending.data, pending.total], [[], 0]);
      const failed = await api('?status=failed');
      assert.equal(failed.total, 5);
      assert.deepEqual(
        failed.data.map((r) => r.msisdn),
        valid,
      );
      assert.deepEqual(
        (await api(`?search=${valid[4]}`)).data.map((r) => r.status),
        ['failed'],
      );
      assert.deepEqual(
        (await api('?after=0&limit=2')).data.map((r) => r.status),
        ['failed', 'failed'],
      );

      const detail = await json<MessageDetail>(owner, `/messages/${scheduled.uuid}`);
      assert.equal(detail.status, 'cancelled');
      assert.equal(detail.counts.pending, 0);
      assert.equal(detail.counts.failed, 5);
      assert.equal(detail.final, true);
      const page = await json<RecipientPage>(owner, `/messages/${scheduled.uuid}/recipients`);
      assert.deepEqual(
        page.data.map((r) => r.status),
        ['failed', 'failed', 'failed', 'failed', 'failed', 'invalid'],
      );
      const csv = await owner.request({
        method: 'GET',
        url: `/messages/${scheduled.uuid}/recipients.csv`,
      });
      assert.doesNotMatch(csv.body, /pending/);

      // Reading them as failed moves no money: the cancel's one refund is all there is.
      const credits = await json<Credits>(owner, '/credits');
      assert.equal(credits.balance, balanceBefore + scheduled.cost);
      assert.equal(
        credits.data.filter((row) => row.messageUuid === scheduled.uuid && row.reason === 'refund')
          .length,
        1,
      );
    });

    it('lets a member cancel a scheduled message, refunds it, and the ledger shows the refund', async () => {
      const scheduled = await send({
        content: 'Cancel me',
        msisdns: numbers(4, 300),
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      });
      const balanceBefore = (await json<Credits>(owner, '/credits')).balance;
      const response = await member.request({
        method: 'POST',
        url: `/messages/${scheduled.uuid}/cancel`,
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json() as CancelledMessage;
      assert.equal(body.refunded, scheduled.cost);
      assert.equal(body.balance, balanceBefore + scheduled.cost);
      const credits = await json<Credits>(owner, '/credits');
      assert.equal(credits.balance, balanceBefore + scheduled.cost);
      const refund = credits.data.find(
        (row) => row.reason === 'refund' && row.messageUuid === scheduled.uuid,
      );
      assert.equal(refund?.delta, scheduled.cost);
      const { items } = await h.store.listAuditEvents({
        offset: 0,
        limit: 1,
        action: 'message.cancel',
      });
      assert.equal(items[0]?.actorUserId, member.user.id);
      assert.equal(items[0]?.targetId, scheduled.uuid);
      assert.equal(items[0]?.detail.refunded, scheduled.cost);
      const auditLines = (await h.store.listAuditEvents({ offset: 0, limit: 1 })).total;

      expectError(
        await member.request({ method: 'POST', url: `/messages/${scheduled.uuid}/cancel` }),
        409,
        'ALREADY_CANCELLED',
      );
      const now = await send({ content: 'At once', msisdns: numbers(1, 400) });
      expectError(
        await member.request({ method: 'POST', url: `/messages/${now.uuid}/cancel` }),
        400,
        'NOT_SCHEDULED',
      );
      assert.equal((await json<Credits>(owner, '/credits')).balance, body.balance - now.cost);
      // A refused cancel writes nothing to the log.
      assert.equal((await h.store.listAuditEvents({ offset: 0, limit: 1 })).total, auditLines);
    });

    it('pages recipients by cursor, by status and by number', async () => {
      const sent = await send({
        content: 'Paging',
        msisdns: [...numbers(120, 1000), 'not-a-number', '0899'],
      });
      const seen: number[] = [];
      let after = 0;
      for (let i = 0; i < 10; i++) {
        const page = await json<RecipientPage>(
          owner,
          `/messages/${sent.uuid}/recipients?after=${after}&limit=50`,
        );
        seen.push(...page.data.map((r) => r.seq));
        after = page.nextCursor;
        if (!page.hasMore) break;
      }
      assert.equal(seen.length, 122);
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a - b),
      );
      assert.equal(new Set(seen).size, 122);

      const invalid = await json<RecipientPage>(
        owner,
        `/messages/${sent.uuid}/recipients?status=invalid`,
      );
      assert.deepEqual(invalid.data.map((r) => r.msisdn).sort(), ['0899', 'not-a-number']);
      const found = await json<RecipientPage>(
        member,
        `/messages/${sent.uuid}/recipients?search=0810001005`,
      );
      assert.deepEqual(
        found.data.map((r) => r.msisdn),
        ['66810001005'],
      );
      expectError(
        await owner.request({ method: 'GET', url: `/messages/${sent.uuid}/recipients?limit=51` }),
        400,
      );
    });

    it('exports every recipient as streamed CSV, rows and compact list alike, and by status', async () => {
      const sent = await send({
        content: 'Export',
        msisdns: [...numbers(120, 2000), '=cmd|calc', 'a,"b"'],
      });
      // Half of it as rows, the rest still in the compact list: the export reads both.
      const cache = new CompactListCache();
      while (
        (await h.store.findMessageByUuid(sent.uuid))!.materialisedUpto < 50 &&
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 50, h.clock.now())) > 0
      );
      const response = await member.request({
        method: 'GET',
        url: `/messages/${sent.uuid}/recipients.csv`,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/);
      assert.match(
        String(response.headers['content-disposition']),
        new RegExp(
          `^attachment; filename="${sent.refNo.replace(/[^\w.-]/g, '_')}-recipients\\.csv"$`,
        ),
      );
      const lines = response.body.trimEnd().split('\r\n');
      assert.equal(lines[0], 'seq,msisdn,status,updatedAt');
      assert.equal(lines.length, 1 + 122);
      assert.match(lines[1]!, /^1,66810002000,pending,\d{4}-\d\d-\d\dT/);
      assert.match(lines[120]!, /^120,66810002119,pending,/);
      assert.ok(lines.includes(`121,'=cmd|calc,invalid,${lines[121]!.split(',').at(-1)}`));
      assert.match(lines[122]!, /^122,"a,""b""",invalid,/);

      const failedOnly = await owner.request({
        method: 'GET',
        url: `/messages/${sent.uuid}/recipients.csv?status=invalid`,
      });
      assert.equal(failedOnly.statusCode, 200);
      assert.match(String(failedOnly.headers['content-disposition']), /-recipients-invalid\.csv"$/);
      const rows = failedOnly.body.trimEnd().split('\r\n').slice(1);
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.includes(',invalid,')));

      expectError(
        await owner.request({
          method: 'GET',
          url: `/messages/${sent.uuid}/recipients.csv?status=lost`,
        }),
        400,
      );
    });

    it("refuses another account's message on every route, and changes nothing", async () => {
      const stranger = await consoleActor(h, 'owner');
      const sent = await send({
        content: 'Private',
        msisdns: numbers(1, 5000),
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      });
      for (const path of ['', '/recipients', '/recipients.csv']) {
        expectError(
          await stranger.request({ method: 'GET', url: `/messages/${sent.uuid}${path}` }),
          403,
        );
      }
      expectError(
        await stranger.request({ method: 'POST', url: `/messages/${sent.uuid}/cancel` }),
        403,
      );
      assert.equal((await h.store.findMessageByUuid(sent.uuid))!.status, 'scheduled');
      const list = await json<MessageList>(stranger, '/messages');
      assert.equal(list.total, 0);
      expectError(
        await owner.request({
          method: 'GET',
          url: '/messages/00000000-0000-4000-8000-000000000000',
        }),
        404,
      );
      expectError(await owner.request({ method: 'GET', url: '/messages/nope' }), 404);
    });

    it("lets an admin read any account's messages, recipients and export, by account, but not cancel", async () => {
      const admin = await consoleActor(h, 'admin');
      const other = await h.customer();
      const theirs = await h.send<{ uuid: string }>(
        { key: other.key },
        {
          sender: other.sender,
          content: 'Theirs',
          msisdns: numbers(2, 7000),
          scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
        },
      );
      const everyone = await json<MessageList>(admin, '/admin/messages?limit=100');
      const accounts = new Set(everyone.data.map((m) => m.accountId));
      assert.ok(accounts.has(other.account.id) && accounts.has(owner.account!.id));
      const one = await json<MessageList>(admin, `/admin/messages?accountId=${other.account.id}`);
      assert.deepEqual(
        one.data.map((m) => m.uuid),
        [theirs.uuid],
      );
      const detail = await json<MessageDetail>(admin, `/admin/messages/${theirs.uuid}`);
      assert.equal(detail.accountId, other.account.id);
      assert.equal(detail.counts.pending, 2);
      const recipients = await json<RecipientPage>(
        admin,
        `/admin/messages/${theirs.uuid}/recipients`,
      );
      assert.equal(recipients.data.length, 2);
      const csv = await admin.request({
        method: 'GET',
        url: `/admin/messages/${theirs.uuid}/recipients.csv`,
      });
      assert.equal(csv.statusCode, 200);
      assert.equal(csv.body.trimEnd().split('\r\n').length, 3);
      const cancel = await admin.request({
        method: 'POST',
        url: `/admin/messages/${theirs.uuid}/cancel`,
      });
      assert.equal(cancel.statusCode, 404);
      expectError(
        await admin.request({ method: 'POST', url: `/messages/${theirs.uuid}/cancel` }),
        403,
      );
      assert.equal((await h.store.findMessageByUuid(theirs.uuid))!.status, 'scheduled');
      expectError(
        await admin.request({
          method: 'GET',
          url: '/admin/messages/00000000-0000-4000-8000-000000000000',
        }),
        404,
      );
      // An owner is no admin.
      expectError(await owner.request({ method: 'GET', url: '/admin/messages' }), 403);
    });
  });
}
