import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

const MINUTE_MS = 60_000;

interface Listed {
  uuid: string;
  refNo: string;
  sender: string;
  content: string;
  status: string;
  createdAt: string;
}

interface ListPage {
  data: Listed[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

type Query = { readonly [name: string]: string | number };

for (const engine of testEngines()) {
  describe(`message list (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function send(
      c: Customer,
      content: string,
      options: { sender?: string; scheduled?: boolean; msisdns?: string[] } = {},
    ): Promise<{ uuid: string; refNo: string; createdAt: string }> {
      const payload = {
        sender: options.sender ?? c.sender,
        content,
        msisdns: options.msisdns ?? ['0812345678'],
        ...(options.scheduled
          ? { scheduledTime: new Date(h.clock.now() + 86_400_000).toISOString() }
          : {}),
      };
      return h.send(c, payload);
    }

    async function list(c: Customer, query: Query = {}): Promise<ListPage> {
      const qs = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms${qs ? `?${qs}` : ''}`,
        key: c.key,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    const contents = (page: ListPage) => page.data.map((m) => m.content);

    it('lists the most recent message first, 20 per page on page 1 by default', async () => {
      const c = await h.customer();
      for (let i = 1; i <= 25; i++) {
        await send(c, `message ${i}`);
        h.clock.advance(1000);
      }
      const first = await list(c);
      assert.equal(first.page, 1);
      assert.equal(first.limit, 20);
      assert.equal(first.total, 25);
      assert.equal(first.totalPages, 2);
      assert.equal(first.data.length, 20);
      assert.deepEqual(
        contents(first),
        Array.from({ length: 20 }, (_, i) => `message ${25 - i}`),
      );
      const createdAt = first.data.map((m) => Date.parse(m.createdAt));
      assert.deepEqual(
        createdAt,
        [...createdAt].sort((a, b) => b - a),
        'createdAt descending',
      );

      const second = await list(c, { page: 2 });
      assert.equal(second.page, 2);
      assert.equal(second.total, 25);
      assert.deepEqual(contents(second), [
        'message 5',
        'message 4',
        'message 3',
        'message 2',
        'message 1',
      ]);

      const beyond = await list(c, { page: 3 });
      assert.deepEqual(beyond.data, []);
      assert.equal(beyond.total, 25);
      assert.equal(beyond.totalPages, 2);
    });

    it('pages with limit and page, and reports total and totalPages', async () => {
      const c = await h.customer();
      for (let i = 1; i <= 7; i++) await send(c, `paged ${i}`);
      const page = await list(c, { limit: 3, page: 2 });
      assert.deepEqual(
        { page: page.page, limit: page.limit, total: page.total, totalPages: page.totalPages },
        { page: 2, limit: 3, total: 7, totalPages: 3 },
      );
      assert.deepEqual(contents(page), ['paged 4', 'paged 3', 'paged 2']);
      assert.deepEqual(contents(await list(c, { limit: 3, page: 3 })), ['paged 1']);

      const seen = new Set<string>();
      for (let p = 1; p <= 3; p++)
        for (const m of (await list(c, { limit: 3, page: p })).data) seen.add(m.uuid);
      assert.equal(seen.size, 7, 'pages cover every message once');
    });

    it('accepts limit 100 and refuses limit 101, page 0 and a non-number with 400', async () => {
      const c = await h.customer();
      await send(c, 'one');
      const max = await list(c, { limit: 100 });
      assert.equal(max.limit, 100);
      assert.equal(max.total, 1);
      for (const query of ['limit=101', 'limit=0', 'page=0', 'page=x', 'limit=abc']) {
        const response = await h.request({
          method: 'GET',
          url: `/api/v2/sms?${query}`,
          key: c.key,
        });
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.equal(response.json().code, 'INVALID_PARAMETER', query);
        assert.equal(typeof response.json().error, 'string');
      }
    });

    it("shows only the caller's messages", async () => {
      const mine = await h.customer();
      const theirs = await h.customer();
      await send(mine, 'mine');
      await send(theirs, 'theirs 1');
      await send(theirs, 'theirs 2');
      const page = await list(mine);
      assert.equal(page.total, 1);
      assert.deepEqual(contents(page), ['mine']);
      assert.equal((await list(theirs)).total, 2);
      assert.equal((await list(mine, { search: 'theirs' })).total, 0);
    });

    it('filters by status', async () => {
      const c = await h.customer();
      await send(c, 'now');
      const scheduled = await send(c, 'later', { scheduled: true });
      const cancelled = await send(c, 'cancel me', { scheduled: true });
      const cancel = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${cancelled.uuid}/cancel`,
        key: c.key,
      });
      assert.equal(cancel.statusCode, 200, cancel.body);

      assert.deepEqual(contents(await list(c, { status: 'pending' })), ['now']);
      const onlyScheduled = await list(c, { status: 'scheduled' });
      assert.deepEqual(
        onlyScheduled.data.map((m) => m.uuid),
        [scheduled.uuid],
      );
      assert.equal(onlyScheduled.total, 1);
      assert.deepEqual(contents(await list(c, { status: 'cancelled' })), ['cancel me']);
      assert.equal((await list(c, { status: 'sent' })).total, 0);
      const bad = await h.request({ method: 'GET', url: '/api/v2/sms?status=done', key: c.key });
      assert.equal(bad.statusCode, 400, bad.body);
    });

    it('filters by sender name', async () => {
      const c = await h.customer();
      const second = `T2x${c.account.id}`;
      await h.sender(c.account.id, second);
      await send(c, 'from first');
      await send(c, 'from second', { sender: second });
      await send(c, 'from second again', { sender: second });

      const page = await list(c, { sender: second });
      assert.equal(page.total, 2);
      assert.deepEqual(contents(page), ['from second again', 'from second']);
      assert.ok(page.data.every((m) => m.sender === second));
      assert.deepEqual(contents(await list(c, { sender: c.sender })), ['from first']);
      assert.equal((await list(c, { sender: 'NoSuchOne' })).total, 0);
    });

    describe('from/to window on createdAt', () => {
      let c: Customer;
      const created: number[] = [];
      before(async () => {
        c = await h.customer();
        // 23:58, 23:59, 00:00, 00:01, 00:02 UTC around a day boundary, a minute apart.
        const start = Date.parse('2026-12-01T23:58:00Z');
        h.clock.advance(start - h.clock.now());
        for (let i = 0; i < 5; i++) {
          const sent = await send(c, `w${i}`);
          created.push(Date.parse(sent.createdAt));
          h.clock.advance(MINUTE_MS);
        }
        assert.deepEqual(
          created.map((ms) => ms - start),
          [0, 1, 2, 3, 4].map((i) => i * MINUTE_MS),
        );
      });

      const window = async (query: Record<string, string>) =>
        contents(await list(c, query)).reverse();

      it('includes messages created exactly at from and exactly at to', async () => {
        assert.deepEqual(
          await window({ from: '2026-12-01T23:59:00Z', to: '2026-12-02T00:01:00Z' }),
          ['w1', 'w2', 'w3'],
        );
      });

      it('reads date-times with an offset as the instant they name', async () => {
        // 06:59+07:00 is 23:59Z; 07:01+07:00 is 00:01Z.
        assert.deepEqual(
          await window({ from: '2026-12-02T06:59:00+07:00', to: '2026-12-02T07:01:00+07:00' }),
          ['w1', 'w2', 'w3'],
        );
        assert.deepEqual(await window({ from: '2026-12-01T18:59:30-05:00' }), ['w2', 'w3', 'w4']);
      });

      it('reads a date alone as the whole UTC day', async () => {
        assert.deepEqual(await window({ from: '2026-12-01', to: '2026-12-01' }), ['w0', 'w1']);
        assert.deepEqual(await window({ from: '2026-12-02' }), ['w2', 'w3', 'w4']);
        assert.deepEqual(await window({ to: '2026-12-01' }), ['w0', 'w1']);
        const page = await list(c, { from: '2026-12-02', to: '2026-12-02' });
        assert.equal(page.total, 3);
      });

      it('answers 400 for a bad date, a date-time without offset, and from after to', async () => {
        for (const query of [
          'from=yesterday',
          'from=2026-13-01',
          'from=2026-02-30',
          'to=2026-12-01T10:00:00',
          'from=2026-12-02&to=2026-12-01',
        ]) {
          const response = await h.request({
            method: 'GET',
            url: `/api/v2/sms?${query}`,
            key: c.key,
          });
          assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
          assert.equal(response.json().code, 'INVALID_PARAMETER', query);
        }
      });
    });

    describe('search in refNo and content', () => {
      let c: Customer;
      let sent: { refNo: string; content: string }[];
      before(async () => {
        c = await h.customer();
        sent = [];
        for (const content of [
          'Hello World',
          'promo 100% off',
          'promo 100 percent',
          'under_score',
          'underXscore',
          'plain',
          'Soldes d’ÉTÉ',
          'สวัสดีครับ',
        ]) {
          const result = await send(c, content);
          sent.push({ refNo: result.refNo, content });
        }
      });

      const search = async (text: string) => contents(await list(c, { search: text })).sort();

      it('finds content case-insensitively', async () => {
        assert.deepEqual(await search('hello world'), ['Hello World']);
        assert.deepEqual(await search('HELLO'), ['Hello World']);
        assert.deepEqual(await search('o wor'), ['Hello World']);
        assert.deepEqual(await search('été'), ['Soldes d’ÉTÉ'], 'beyond ASCII');
        assert.deepEqual(await search('ÉTÉ'), ['Soldes d’ÉTÉ']);
        assert.deepEqual(await search('สวัสดี'), ['สวัสดีครับ']);
      });

      it('finds a message by its refNo, in any case', async () => {
        const target = sent[2]!;
        assert.match(target.refNo, /^M\d+$/);
        const page = await list(c, { search: target.refNo });
        assert.deepEqual(contents(page), [target.content]);
        assert.equal(page.total, 1);
        assert.deepEqual(await search(target.refNo.toLowerCase()), [target.content]);
      });

      it('treats % and _ in the search as literal characters', async () => {
        assert.deepEqual(await search('%'), ['promo 100% off']);
        assert.deepEqual(await search('100%'), ['promo 100% off']);
        assert.deepEqual(await search('_'), ['under_score']);
        assert.deepEqual(await search('r_s'), ['under_score']);
        assert.deepEqual(await search('\\'), []);
      });

      it('combines search with status, sender and window filters', async () => {
        const d = await h.customer();
        const other = `T3x${d.account.id}`;
        await h.sender(d.account.id, other);
        h.clock.advance(MINUTE_MS);
        const from = new Date(h.clock.now()).toISOString();
        await send(d, 'sale today');
        await send(d, 'sale later', { scheduled: true });
        await send(d, 'sale other sender', { sender: other });
        await send(d, 'not matching');
        h.clock.advance(MINUTE_MS);
        const to = new Date(h.clock.now()).toISOString();
        h.clock.advance(MINUTE_MS);
        await send(d, 'sale after window');

        const names = async (query: Record<string, string>) =>
          contents(await list(d, query)).sort();
        assert.deepEqual(
          await names({ search: 'SALE', status: 'pending', sender: d.sender, from, to }),
          ['sale today'],
        );
        assert.deepEqual(await names({ search: 'sale', status: 'pending', from, to }), [
          'sale other sender',
          'sale today',
        ]);
        assert.deepEqual(await names({ search: 'sale', status: 'scheduled' }), ['sale later']);
        assert.deepEqual(await names({ search: 'sale', sender: d.sender }), [
          'sale after window',
          'sale later',
          'sale today',
        ]);
        assert.deepEqual(await names({ search: 'sale', to }), [
          'sale later',
          'sale other sender',
          'sale today',
        ]);
        const page = await list(d, { search: 'sale', status: 'pending', limit: 1, page: 2 });
        assert.equal(page.total, 3);
        assert.equal(page.totalPages, 3);
        assert.deepEqual(contents(page), ['sale other sender']);
      });
    });
  });
}
