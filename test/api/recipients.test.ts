import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/domain/store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { RECIPIENT_STATUSES } from '../../src/domain/statuses.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

interface Recipient {
  seq: number;
  msisdn: string;
  status: string;
  updatedAt?: string | null;
}

interface RecipientsAnswer {
  data: Recipient[];
  summary: { status: string; count: number }[];
  total?: number;
  nextCursor?: number;
  hasMore?: boolean;
}

const VALID_COUNT = 265;
const ACCOUNT_BLOCKED = [3, 100, 264];
const PLATFORM_BLOCKED = [0, 150];
const INVALID = [
  '12345',
  'abc',
  'ABC123',
  '+66812000001',
  '0812-000',
  '66812',
  '081200000000',
  'x_%1',
];

const suffixOf = (i: number) => 812_000_000 + i * 37;
const international = (i: number) => `66${suffixOf(i)}`;
const local = (i: number) => `0${suffixOf(i)}`;

/**
 * A send of a few hundred numbers: valid ones alternating local and international form, each
 * tenth one repeated in the other form, invalid strings in between (one repeated), and five
 * numbers blocklisted (three by the account, two platform-wide).
 */
function requestNumbers(): string[] {
  const numbers: string[] = [];
  for (let i = 0; i < VALID_COUNT; i++) {
    numbers.push(i % 2 === 0 ? local(i) : international(i));
    if (i % 10 === 5) numbers.push(i % 2 === 0 ? international(i) : local(i));
    if (i % 33 === 7) numbers.push(INVALID[(i - 7) / 33]!);
  }
  numbers.push('abc');
  return numbers;
}

/** What the recipients of that send must be: valid numbers by first occurrence, then invalid. */
function expectedRecipients(): Recipient[] {
  const blocked = new Set([...ACCOUNT_BLOCKED, ...PLATFORM_BLOCKED]);
  const valid = Array.from({ length: VALID_COUNT }, (_, i) => ({
    seq: i + 1,
    msisdn: international(i),
    status: blocked.has(i) ? 'blocked' : 'pending',
  }));
  const invalid = INVALID.map((msisdn, j) => ({
    seq: VALID_COUNT + j + 1,
    msisdn,
    status: 'invalid',
  }));
  return [...valid, ...invalid];
}

const EXPECTED = expectedRecipients();
const TOTAL = EXPECTED.length;
const stripTimes = (rows: Recipient[]) =>
  rows.map(({ seq, msisdn, status }) => ({ seq, msisdn, status }));

function expectedSummary(): { status: string; count: number }[] {
  return RECIPIENT_STATUSES.map((status) => ({
    status,
    count: EXPECTED.filter((r) => r.status === status).length,
  }));
}

type Query = { readonly [name: string]: string | number };

for (const engine of testEngines()) {
  describe(`recipients (${engine.name})`, () => {
    let h: Harness;
    let c: Customer;
    let uuid: string;
    let messageId: number;

    before(async () => {
      h = await createHarness(engine);
      c = await h.customer({ credits: 10_000 });
      await h.store.addToBlocklist(c.account.id, ACCOUNT_BLOCKED.map(local), h.clock.now());
      await h.store.addToBlocklist(0, PLATFORM_BLOCKED.map(international), h.clock.now());
      const sent = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: { sender: c.sender, content: 'Hello', msisdns: requestNumbers() },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const body = sent.json();
      assert.deepEqual(body.recipients, {
        requested: requestNumbers().length,
        unique: TOTAL,
        duplicates: requestNumbers().length - TOTAL,
        valid: VALID_COUNT,
        invalid: INVALID.length,
        blocked: ACCOUNT_BLOCKED.length + PLATFORM_BLOCKED.length,
        charged: VALID_COUNT - ACCOUNT_BLOCKED.length - PLATFORM_BLOCKED.length,
      });
      uuid = body.uuid;
      messageId = (await h.store.findMessageByUuid(uuid))!.id;
    });
    after(() => h.close());

    async function get(query: Query = {}, key = c.key): Promise<RecipientsAnswer> {
      const response = await rawGet(query, key);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    function rawGet(query: Query, key = c.key) {
      const qs = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      return h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}/recipients${qs ? `?${qs}` : ''}`,
        key,
      });
    }

    /** Follows nextCursor from after=0 to the end; returns every page. */
    async function walk(query: Query = {}): Promise<RecipientsAnswer[]> {
      const pages: RecipientsAnswer[] = [];
      let after = 0;
      for (let guard = 0; guard < TOTAL + 2; guard++) {
        const page = await get({ ...query, after });
        pages.push(page);
        if (!page.hasMore) return pages;
        assert.ok(page.nextCursor! > after, 'the cursor moves forward');
        after = page.nextCursor!;
      }
      assert.fail('cursor walk did not end');
    }

    const matching = (predicate: (r: Recipient) => boolean) => EXPECTED.filter(predicate);

    it('answers the first page with total and summary, and no cursor, without after', async () => {
      const answer = await get();
      assert.deepEqual(Object.keys(answer).sort(), ['data', 'summary', 'total']);
      assert.equal(answer.total, TOTAL);
      assert.equal(answer.data.length, 50, 'limit defaults to 50');
      assert.deepEqual(stripTimes(answer.data), EXPECTED.slice(0, 50));
    });

    it('answers nextCursor and hasMore instead of total with after=0', async () => {
      const answer = await get({ after: 0 });
      assert.deepEqual(Object.keys(answer).sort(), ['data', 'hasMore', 'nextCursor', 'summary']);
      assert.equal(answer.hasMore, true);
      assert.equal(answer.nextCursor, 50);
      assert.deepEqual(stripTimes(answer.data), EXPECTED.slice(0, 50));
    });

    it('returns every recipient exactly once, in seq order, when walking the cursor', async () => {
      for (const limit of [50, 13]) {
        const pages = await walk({ limit });
        const seen = pages.flatMap((page) => page.data);
        assert.deepEqual(stripTimes(seen), EXPECTED, `limit ${limit}`);
        assert.equal(pages.length, Math.ceil(TOTAL / limit));
        assert.ok(
          pages.slice(0, -1).every((page) => page.data.length === limit && page.hasMore === true),
        );
        assert.equal(pages.at(-1)!.hasMore, false);
        assert.equal(pages.at(-1)!.nextCursor, TOTAL);
      }
      const beyond = await get({ after: TOTAL });
      assert.deepEqual(beyond.data, []);
      assert.equal(beyond.hasMore, false);
      assert.equal(beyond.nextCursor, TOTAL);
      const far = await get({ after: 1_000_000 });
      assert.deepEqual(far.data, []);
      assert.equal(far.hasMore, false);
    });

    it('pages 50 at most: limit 50 is accepted, 51, 0, a negative cursor and non-numbers are 400', async () => {
      assert.equal((await get({ limit: 50 })).data.length, 50);
      assert.equal((await get({ limit: 1, after: 7 })).data[0]!.seq, 8);
      const refused: Query[] = [
        { limit: 51 },
        { limit: 0 },
        { after: -1 },
        { after: 'abc' },
        { limit: 'x' },
        { status: 'done' },
      ];
      for (const query of refused) {
        const response = await rawGet(query);
        assert.equal(response.statusCode, 400, `${JSON.stringify(query)}: ${response.body}`);
        assert.equal(response.json().code, 'INVALID_PARAMETER');
      }
    });

    it('filters by a rare status, with total and with paging', async () => {
      for (const status of ['blocked', 'invalid']) {
        const expected = matching((r) => r.status === status);
        const answer = await get({ status });
        assert.equal(answer.total, expected.length, status);
        assert.deepEqual(stripTimes(answer.data), expected);
        const pages = await walk({ status, limit: 2 });
        assert.deepEqual(
          stripTimes(pages.flatMap((page) => page.data)),
          expected,
          `${status} walked`,
        );
        assert.equal(pages.length, Math.ceil(expected.length / 2));
      }
      const pending = await get({ status: 'pending' });
      assert.equal(pending.total, matching((r) => r.status === 'pending').length);
      const none = await get({ status: 'success' });
      assert.equal(none.total, 0);
      assert.deepEqual(none.data, []);
      const noneWalked = await get({ status: 'timeout', after: 0 });
      assert.deepEqual(noneWalked.data, []);
      assert.equal(noneWalked.hasMore, false);
    });

    it('searches numbers by substring, and finds a full local-form number in its 66 form', async () => {
      const digits = String(suffixOf(120)).slice(3, 7);
      const bySubstring = matching((r) => r.msisdn.includes(digits));
      assert.ok(bySubstring.length > 1 && bySubstring.length < TOTAL, 'the substring is selective');
      const answer = await get({ search: digits });
      assert.equal(answer.total, bySubstring.length);
      assert.deepEqual(stripTimes(answer.data), bySubstring.slice(0, 50));

      const localForm = await get({ search: local(120) });
      assert.equal(localForm.total, 1);
      assert.deepEqual(stripTimes(localForm.data), [
        { seq: 121, msisdn: international(120), status: 'pending' },
      ]);
      assert.deepEqual(
        stripTimes((await get({ search: international(120) })).data),
        stripTimes(localForm.data),
      );

      const blockedSearch = await get({ search: local(ACCOUNT_BLOCKED[1]!), status: 'blocked' });
      assert.equal(blockedSearch.total, 1);
      assert.equal(blockedSearch.data[0]!.msisdn, international(ACCOUNT_BLOCKED[1]!));
      assert.equal((await get({ search: local(ACCOUNT_BLOCKED[1]!), status: 'pending' })).total, 0);

      const crossing = await get({ search: '66812' });
      assert.equal(
        crossing.total,
        matching((r) => r.msisdn.includes('66812')).length,
        'valid and invalid entries',
      );
      assert.equal((await get({ search: '%' })).total, 1, '% is literal');
      assert.equal((await get({ search: '_' })).total, 1, '_ is literal');
      assert.equal((await get({ search: '999999' })).total, 0);
    });

    it('searches the text of invalid entries case-insensitively', async () => {
      for (const search of ['abc', 'ABC', 'aBc']) {
        const answer = await get({ search });
        assert.equal(answer.total, 2, search);
        assert.deepEqual(
          answer.data.map((r) => r.msisdn),
          ['abc', 'ABC123'],
          search,
        );
      }
      assert.deepEqual(
        (await get({ search: 'x_%' })).data.map((r) => r.msisdn),
        ['x_%1'],
      );
    });

    it('summarises all seven statuses over the whole message, whatever the filter or cursor', async () => {
      const summary = expectedSummary();
      assert.deepEqual(
        summary.map((s) => s.status),
        ['pending', 'success', 'failed', 'invalid', 'blocked', 'expired', 'timeout'],
      );
      const queries: Query[] = [
        {},
        { after: 0 },
        { after: 200, limit: 3 },
        { status: 'blocked' },
        { search: '999999' },
      ];
      for (const query of queries) {
        assert.deepEqual((await get(query)).summary, summary, JSON.stringify(query));
      }
    });

    it("answers 403 for another account's message and 404 for an unknown one", async () => {
      const other = await h.customer();
      const forbidden = await rawGet({}, other.key);
      assert.equal(forbidden.statusCode, 403, forbidden.body);
      assert.equal(forbidden.json().code, 'FORBIDDEN');
      const unknown = await h.request({
        method: 'GET',
        url: '/api/v2/sms/00000000-0000-4000-8000-000000000000/recipients',
        key: c.key,
      });
      assert.equal(unknown.statusCode, 404, unknown.body);
    });

    /** Every kind of question the endpoint answers, asked the same way in each state. */
    async function everyAnswer(): Promise<Record<string, unknown>> {
      const answers: Record<string, unknown> = {};
      const asked: Query[] = [
        {},
        { limit: 7 },
        { status: 'pending' },
        { status: 'blocked' },
        { status: 'invalid' },
        { status: 'success' },
        { search: '66812' },
        { search: String(suffixOf(200)).slice(4, 8) },
        { search: local(7) },
        { search: 'abc' },
        { search: 'ABC' },
        { search: '_' },
        { search: '1', status: 'blocked' },
        { search: '12', status: 'invalid' },
      ];
      for (const after of [
        0,
        1,
        36,
        37,
        38,
        110,
        111,
        112,
        258,
        259,
        260,
        264,
        265,
        266,
        272,
        TOTAL,
        TOTAL + 5,
      ]) {
        asked.push(
          { after },
          { after, limit: 3 },
          { after, status: 'blocked', limit: 1 },
          { after, status: 'invalid', limit: 2 },
        );
      }
      for (const query of asked) answers[JSON.stringify(query)] = await get(query);
      const walks: Query[] = [
        { limit: 13 },
        { status: 'blocked', limit: 2 },
        { status: 'pending', limit: 40 },
        { search: '3', limit: 9 },
      ];
      for (const query of walks) {
        answers[`walk ${JSON.stringify(query)}`] = await walk(query);
      }
      return answers;
    }

    async function materialised(): Promise<number> {
      return (await h.store.findMessageByUuid(uuid))!.materialisedUpto;
    }

    it('answers the same pages, totals, filters and searches before, during and after materialisation', async () => {
      const cache = new CompactListCache();
      const engineOps = h.db.database.engine;
      const chunk = (size: number) =>
        materialiseNextChunk(h.store, engineOps, cache, size, h.clock.now());
      assert.equal(await materialised(), 0);
      const before = await everyAnswer();

      const states: string[] = [];
      for (const calls of [1, 2, 4]) {
        for (let i = 0; i < calls; i++) assert.equal(await chunk(37), 37);
        const upto = await materialised();
        states.push(String(upto));
        assert.deepEqual(await everyAnswer(), before, `materialised up to ${upto}`);
      }
      assert.deepEqual(states, ['37', '111', '259']);
      while ((await materialised()) < TOTAL) await chunk(37);

      const rows = await h.db.database.db
        .selectFrom('recipients')
        .select(['seq', 'msisdn', 'status'])
        .where('message_id', '=', messageId)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        rows.map((row) => ({ seq: Number(row.seq), msisdn: row.msisdn, status: row.status })),
        EXPECTED,
      );
      assert.deepEqual(await everyAnswer(), before, 'fully materialised');
    });
  });

  describe(`recipient materialisation by concurrent workers (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    /** A second worker's store: on PostgreSQL its own pool, as a second scheduler process has. */
    function secondWorker(): {
      store: Store;
      engine: typeof h.db.database.engine;
      close(): Promise<void>;
    } {
      if (h.db.schema === undefined)
        return { store: h.store, engine: h.db.database.engine, close: async () => undefined };
      const database = openDatabase(h.db.url, { schema: h.db.schema });
      return {
        store: createStore(database.db),
        engine: database.engine,
        close: () => database.close(),
      };
    }

    it('never writes a recipient row twice when two workers materialise at once', async () => {
      const c = await h.customer({ credits: 100_000 });
      const uuids: string[] = [];
      for (const count of [1000, 7, 333]) {
        const msisdns = Array.from({ length: count }, (_, i) => `0${900_000_000 + i * 11}`);
        const sent = await h.request({
          method: 'POST',
          url: '/api/v2/sms/send',
          key: c.key,
          payload: { sender: c.sender, content: 'x', msisdns },
        });
        assert.equal(sent.statusCode, 200, sent.body);
        uuids.push(sent.json().uuid);
      }
      const second = secondWorker();
      const work = async (store: Store, engineOps: typeof h.db.database.engine) => {
        const cache = new CompactListCache();
        let written = 0;
        while ((await store.unmaterialisedMessages(1)).length > 0) {
          written += await materialiseNextChunk(store, engineOps, cache, 50, h.clock.now());
        }
        return written;
      };
      try {
        const [a, b] = await Promise.all([
          work(h.store, h.db.database.engine),
          work(second.store, second.engine),
        ]);
        assert.equal(a + b, 1340, 'every row written once between the two');
      } finally {
        await second.close();
      }
      for (const [i, expected] of [1000, 7, 333].entries()) {
        const message = (await h.store.findMessageByUuid(uuids[i]!))!;
        assert.equal(message.materialisedUpto, expected);
        const row = await h.db.database.db
          .selectFrom('recipients')
          .select((eb) => [
            eb.fn.countAll().as('n'),
            eb.fn.count('seq').distinct().as('distinctSeqs'),
            eb.fn.max('seq').as('maxSeq'),
          ])
          .where('message_id', '=', message.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(
          { n: Number(row.n), distinctSeqs: Number(row.distinctSeqs), maxSeq: Number(row.maxSeq) },
          { n: expected, distinctSeqs: expected, maxSeq: expected },
        );
      }
    });
  });
}

for (const engine of testEngines()) {
  describe(`recipient search over many matches (${engine.name})`, () => {
    const COUNT = 25_000; // more matches than search-recipients resolves seq by seq
    const MATERIALISED = 10_000;
    let h: Harness;
    let c: Customer;
    let uuid: string;

    before(async () => {
      h = await createHarness(engine);
      c = await h.customer({ credits: 100_000 });
      const msisdns = Array.from({ length: COUNT }, (_, i) => `66${String(800_000_000 + i)}`);
      await h.store.addToBlocklist(
        c.account.id,
        [msisdns[500]!, msisdns[COUNT - 5]!],
        h.clock.now(),
      );
      const sent = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: { sender: c.sender, content: 'Hello', msisdns },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      uuid = sent.json().uuid;
      const message = (await h.store.findMessageByUuid(uuid))!;
      const cache = new CompactListCache();
      while ((await h.store.findMessageByUuid(uuid))!.materialisedUpto < MATERIALISED) {
        await materialiseNextChunk(h.store, h.db.database.engine, cache, 2_500, h.clock.now());
      }
      // Delivery outcomes exist only in rows: seqs 1..100 delivered.
      await h.db.database.db
        .updateTable('recipients')
        .set({ status: 'success' })
        .where('message_id', '=', message.id)
        .where('seq', '<=', 100)
        .execute();
    });
    after(() => h.close());

    async function total(query: string): Promise<number> {
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}/recipients?${query}`,
        key: c.key,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().total;
    }

    it('counts status-filtered matches from rows and from the compact list alike', async () => {
      assert.equal(await total('search=6680'), COUNT);
      assert.equal(await total('search=6680&status=success'), 100);
      assert.equal(await total('search=6680&status=blocked'), 2);
      assert.equal(await total('search=6680&status=pending'), COUNT - 100 - 2);
      assert.equal(await total('search=66800000500&status=blocked'), 1);
    });
  });
}
