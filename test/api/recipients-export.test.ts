import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMITS } from '../../src/domain/limits.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

interface Recipient {
  seq: number;
  msisdn: string;
  status: string;
  updatedAt: string | null;
}

/** More than two pages of the export (5,000 each), and invalid numbers a spreadsheet would run. */
const VALID = 12_001;
const INVALID = ['=1+2', 'a,b', '"quoted"'];
const numbers = [...Array.from({ length: VALID }, (_, i) => `66${812_000_000 + i}`), ...INVALID];

/**
 * GET /api/v2/sms/{uuid}/recipients/export: every recipient of a message, streamed as CSV or
 * NDJSON, the same rows the recipients pages give, under the same key rules.
 */
for (const engine of testEngines()) {
  describe(`the recipients export (${engine.name})`, () => {
    let h: Harness;
    let c: Customer;
    let uuid: string;
    /** Every recipient as the recipients pages give them. */
    let pages: Recipient[];

    before(async () => {
      h = await createHarness(engine);
      c = await h.customer({ credits: 100_000 });
      const sent = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: { sender: c.sender, content: 'Hello', msisdns: numbers },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      uuid = sent.json().uuid;
      pages = [];
      for (let after = 0, more = true; more;) {
        const page = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${uuid}/recipients?after=${after}&limit=${LIMITS.recipientPageSize.max}`,
          key: c.key,
        });
        assert.equal(page.statusCode, 200, page.body);
        const body = page.json();
        pages.push(...body.data);
        more = body.hasMore;
        after = body.nextCursor;
      }
      assert.equal(pages.length, VALID + INVALID.length);
    });
    after(() => h.close());

    const exported = (query: string, key = c.key) =>
      h.request({ method: 'GET', url: `/api/v2/sms/${uuid}/recipients/export${query}`, key });

    it('gives every recipient as CSV by default, a header first, numbers safe in a spreadsheet', async () => {
      const response = await exported('');
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(
        String(response.headers['content-disposition']),
        /^attachment; filename="[\w.-]+-recipients\.csv"$/,
      );
      const lines = response.body.split('\r\n');
      assert.equal(lines.pop(), '', 'the last line ends with its line break');
      assert.equal(lines.shift(), 'seq,msisdn,status,updatedAt');
      const cell = (msisdn: string) =>
        msisdn === '=1+2'
          ? "'=1+2"
          : msisdn === 'a,b'
            ? '"a,b"'
            : msisdn === '"quoted"'
              ? '"""quoted"""'
              : msisdn;
      assert.deepEqual(
        lines,
        pages.map((r) => `${r.seq},${cell(r.msisdn)},${r.status},${r.updatedAt ?? ''}`),
      );
    });

    it('gives every recipient as NDJSON, each line a recipients page item', async () => {
      const response = await exported('?format=ndjson');
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      assert.equal(response.headers['content-type'], 'application/x-ndjson; charset=utf-8');
      assert.ok(response.body.endsWith('\n'));
      const rows = response.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Recipient);
      assert.deepEqual(rows, pages);
    });

    it('keeps one status when asked', async () => {
      const response = await exported('?format=ndjson&status=invalid');
      assert.equal(response.statusCode, 200, response.body);
      const rows = response.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Recipient);
      assert.deepEqual(
        rows,
        pages.filter((r) => r.status === 'invalid'),
      );
      assert.equal(rows.length, INVALID.length);
    });

    it('answers a read-only key (sms:read)', async () => {
      const readOnly = await h.key(c.account.id, ['sms:read']);
      const response = await exported('?status=invalid', readOnly.key);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body.trimEnd().split('\r\n').length, 1 + INVALID.length);
    });

    it('refuses an unknown format, another account’s message, one that does not exist and no key', async () => {
      const refusals: [Awaited<ReturnType<typeof exported>>, number, string][] = [];
      refusals.push([await exported('?format=xml'), 400, 'INVALID_PARAMETER']);
      const other = await h.customer();
      refusals.push([await exported('', other.key), 403, 'FORBIDDEN']);
      refusals.push([
        await h.request({
          method: 'GET',
          url: `/api/v2/sms/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/recipients/export`,
          key: c.key,
        }),
        404,
        'NOT_FOUND',
      ]);
      refusals.push([
        await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}/recipients/export` }),
        401,
        'UNAUTHORIZED',
      ]);
      for (const [response, status, code] of refusals) {
        assert.equal(response.statusCode, status, response.body);
        assert.equal(response.json().code, code);
      }
    });
  });
}
