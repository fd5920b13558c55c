import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { expectError } from '../support/security-suite.js';

const SEND = '/api/v2/sms/send';
const PREVIEW = '/api/v2/sms/preview-cost';
const JSON_TYPE = { 'content-type': 'application/json' };

/** What every case may use: the caller, another account, and a message, template and group of the caller's. */
interface Fixture {
  readonly c: Customer;
  readonly other: Customer;
  readonly pendingSender: string;
  readonly templateId: number;
  readonly groupId: number;
  readonly emptyGroupId: number;
  readonly uuid: string;
}

interface BadInput {
  readonly name: string;
  readonly status: number;
  readonly code: string;
  request(f: Fixture): InjectOptions;
}

/** A send body: valid apart from what `override` changes (undefined removes a field). */
function sendBody(f: Fixture, override: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    sender: f.c.sender,
    content: 'Hello',
    msisdns: ['0812345678'],
    ...override,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

const raw = (payload: string | Buffer, url = SEND): InjectOptions => ({
  method: 'POST',
  url,
  payload,
  headers: JSON_TYPE,
});
const post = (payload: Record<string, unknown>, url = SEND): InjectOptions => ({
  method: 'POST',
  url,
  payload,
});
const get = (url: string): InjectOptions => ({ method: 'GET', url });

function malformedJson(name: string, body: string): BadInput {
  return {
    name: `malformed JSON: ${name}`,
    status: 400,
    code: 'INVALID_JSON',
    request: () => raw(body),
  };
}

/** A valid send body (or `base`) with `field` set to each of `values` in turn. */
function wrongType(
  field: string,
  values: unknown[],
  code = 'INVALID_PARAMETER',
  base: (f: Fixture) => Record<string, unknown> = (f) => sendBody(f),
): BadInput[] {
  return values.map((value) => ({
    name: `${field} = ${JSON.stringify(value)}`,
    status: 400,
    code,
    request: (f: Fixture) => post({ ...base(f), [field]: value }),
  }));
}

const CASES: BadInput[] = [
  malformedJson('an unclosed object', '{'),
  malformedJson('a trailing comma', '{"sender":"X","content":"Hi",}'),
  malformedJson('single quotes', "{'sender':'X'}"),
  malformedJson('an unterminated string', '{"sender":"X'),
  malformedJson('a raw control character in a string', '{"sender":"X","content":"a\u0001b"}'),
  malformedJson('data after the object', '{"sender":"X"}{}'),
  malformedJson('a number with a leading zero', '{"contactGroupId":01}'),
  malformedJson('NaN', '{"contactGroupId":NaN}'),
  malformedJson('an invalid escape', '{"content":"\\x41"}'),
  malformedJson('a truncated \\u escape', '{"content":"\\u12"}'),
  malformedJson('an empty body', ''),
  malformedJson('only whitespace', ' \n\t '),
  malformedJson('a byte-order mark', '\ufeff{"sender":"X"}'),
  malformedJson('a missing comma between numbers', '{"msisdns":["0812345678" "0898765432"]}'),
  malformedJson('a trailing comma in msisdns', '{"msisdns":["0812345678",]}'),
  malformedJson('an unterminated msisdns array', '{"msisdns":["0812345678"'),
  malformedJson('nesting 600 deep', `{"x":${'['.repeat(600)}${']'.repeat(600)}}`),
  malformedJson('a bare word', 'hello'),
  {
    name: 'a member given twice',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) =>
      raw(
        `{"sender":"${f.c.sender}","sender":"${f.c.sender}","content":"Hi","msisdns":["0812345678"]}`,
      ),
  },
  ...['[]', '"text"', '42', 'null', 'true', '[{"sender":"X"}]'].map((body): BadInput => ({
    name: `a non-object body ${body}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: () => raw(body),
  })),
  ...wrongType('sender', [42, null, true, [], {}, '']),
  ...wrongType('content', [42, null, true, ['Hi'], { text: 'Hi' }]),
  ...wrongType('msisdns', ['0812345678', 66812345678, {}, null, true]),
  ...wrongType('msisdns', [[812345678], [null], [['0812345678']], [{}], ['0812345678', 5]]),
  ...wrongType('contactGroupId', ['1', 1.5, -1, 0, true, null, [1], 1e300]),
  ...wrongType('templateId', ['1', 1.5, 0, false, null, {}], 'INVALID_PARAMETER', (f) =>
    sendBody(f, { content: undefined }),
  ),
  ...wrongType(
    'variables',
    ['name=Ann', [], 42, null, { name: { b: 1 } }, { name: null }, { name: [1] }],
    'INVALID_PARAMETER',
    (f) => sendBody(f, { content: undefined, templateId: f.templateId }),
  ),
  ...wrongType(
    'scheduledTime',
    [42, true, {}, null, ['2026-12-01T00:00:00Z']],
    'INVALID_SCHEDULED_TIME',
  ),
  ...wrongType('dryRun', ['true', 1, 0, null, {}], 'INVALID_PARAMETER'),
  {
    name: 'empty msisdns',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { msisdns: [] })),
  },
  {
    name: 'no recipients at all',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { msisdns: undefined })),
  },
  {
    name: 'no valid number',
    status: 400,
    code: 'INVALID_NUMBER',
    request: (f) => post(sendBody(f, { msisdns: ['+66812345678', '1234'] })),
  },
  {
    name: '1,001-character content',
    status: 400,
    code: 'CONTENT_TOO_LONG',
    request: (f) => post(sendBody(f, { content: 'ก'.repeat(1001) })),
  },
  ...['', '   ', ' \n\t '].map((content): BadInput => ({
    name: `content ${JSON.stringify(content)}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { content })),
  })),
  {
    name: 'content with a NUL character',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { content: 'a\u0000b' })),
  },
  {
    name: 'a 12-character sender',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { sender: 'ABCDEFGHIJKL' })),
  },
  ...['AB\u0001C', 'AB\u007fC', 'AB\nC', 'A  B', ' AB', 'ร้านค้า'].map((sender): BadInput => ({
    name: `sender ${JSON.stringify(sender)}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { sender })),
  })),
  {
    name: 'an unapproved sender',
    status: 400,
    code: 'SENDER_NOT_APPROVED',
    request: (f) => post(sendBody(f, { sender: f.pendingSender })),
  },
  {
    name: "another account's sender",
    status: 403,
    code: 'FORBIDDEN',
    request: (f) => post(sendBody(f, { sender: f.other.sender })),
  },
  {
    name: 'an unknown sender',
    status: 400,
    code: 'SENDER_NOT_FOUND',
    request: (f) => post(sendBody(f, { sender: 'Nobody' })),
  },
  {
    name: 'an unknown contact group',
    status: 400,
    code: 'CONTACT_GROUP_NOT_FOUND',
    request: (f) => post(sendBody(f, { msisdns: undefined, contactGroupId: 2_147_483_648 })),
  },
  {
    name: 'an empty contact group',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { msisdns: undefined, contactGroupId: f.emptyGroupId })),
  },
  {
    name: 'an unknown template',
    status: 400,
    code: 'TEMPLATE_NOT_FOUND',
    request: (f) => post(sendBody(f, { content: undefined, templateId: 2_147_483_648 })),
  },
  {
    name: 'a template with a missing variable',
    status: 400,
    code: 'TEMPLATE_VARIABLE_MISSING',
    request: (f) =>
      post(
        sendBody(f, { content: undefined, templateId: f.templateId, variables: { other: 'x' } }),
      ),
  },
  {
    name: 'both content and templateId',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { templateId: f.templateId, variables: { name: 'A' } })),
  },
  {
    name: 'variables with content',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post(sendBody(f, { variables: { name: 'A' } })),
  },
  {
    name: 'a scheduledTime in the past',
    status: 400,
    code: 'INVALID_SCHEDULED_TIME',
    request: (f) => post(sendBody(f, { scheduledTime: '2026-11-22T18:59:59+07:00' })),
  },
  {
    name: 'a scheduledTime without an offset',
    status: 400,
    code: 'INVALID_SCHEDULED_TIME',
    request: (f) => post(sendBody(f, { scheduledTime: '2026-12-01T09:00:00' })),
  },
  ...['foo', '__proto__', 'constructor', 'Sender', 'msisdn'].map((field): BadInput => ({
    name: `an unknown field ${field}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => raw(JSON.stringify(sendBody(f)).replace(/}$/, `,${JSON.stringify(field)}:{}}`)),
  })),
  ...[
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'order 17'],
    ['empty', ''],
  ].map(([name, key]): BadInput => ({
    name: `an Idempotency-Key of ${name}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => ({ ...post(sendBody(f)), headers: { 'idempotency-key': key! } }),
  })),
  ...[
    ['text/plain', '{}'],
    ['application/x-www-form-urlencoded', 'sender=X'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/xml', '<sms/>'],
  ].map(([type, body]): BadInput => ({
    name: `content-type ${type}`,
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: (f) => ({
      method: 'POST',
      url: SEND,
      payload: type === 'text/plain' ? JSON.stringify(sendBody(f)) : body,
      headers: { 'content-type': type! },
    }),
  })),
  {
    name: 'a body without a content-type',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: (f) => ({
      method: 'POST',
      url: SEND,
      payload: Buffer.from(JSON.stringify(sendBody(f))),
    }),
  },
  {
    name: 'no body at all',
    status: 400,
    code: 'INVALID_JSON',
    request: () => ({ method: 'POST', url: SEND }),
  },

  // preview-cost
  {
    name: 'preview: malformed JSON',
    status: 400,
    code: 'INVALID_JSON',
    request: () => raw('{"content":', PREVIEW),
  },
  {
    name: 'preview: no numbers',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: () => post({ content: 'Hi' }, PREVIEW),
  },
  {
    name: 'preview: 2,001-character content',
    status: 400,
    code: 'CONTENT_TOO_LONG',
    request: () => post({ content: 'x'.repeat(2001), msisdns: ['0812345678'] }, PREVIEW),
  },
  {
    name: 'preview: a send-only field',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => post({ sender: f.c.sender, content: 'Hi', msisdns: ['0812345678'] }, PREVIEW),
  },
  {
    name: 'preview: text/plain',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: () => ({ ...raw('{}', PREVIEW), headers: { 'content-type': 'text/plain' } }),
  },

  // GET /api/v2/sms
  ...[
    'limit=101',
    'limit=0',
    'limit=-5',
    'limit=abc',
    'limit=1.5',
    'limit=',
    'page=0',
    'page=-1',
    'page=abc',
    'page=1e308',
    'page=99999999999999999999',
    'status=done',
    'status=SENT',
    'status=',
    'from=yesterday',
    'from=2026-13-01',
    'from=2026-02-30',
    'from=2026-02-30T00:00:00Z',
    'to=2026-11-22T24:00:00Z',
    'from=2026-11-22T10:00:00',
    'from=1700000000000',
    'from=2026-11-23&to=2026-11-22',
    'from=2026-11-22T12:00:01Z&to=2026-11-22T12:00:00Z',
    'search=%00',
    `search=${'x'.repeat(1001)}`,
    'sender=ABCDEFGHIJKL',
    'sender=%00',
  ].map((query): BadInput => ({
    name: `list ?${query.slice(0, 40)}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: () => get(`/api/v2/sms?${query}`),
  })),

  // GET /api/v2/sms/{uuid}/recipients
  ...[
    'after=-1',
    'after=abc',
    'after=1.5',
    'after=',
    'after=99999999999999999999',
    'after=1e308',
    'limit=51',
    'limit=0',
    'limit=abc',
    'status=delivered',
    'status=sent',
    'status=PENDING',
    'search=%00',
    `search=${'6'.repeat(33)}`,
  ].map((query): BadInput => ({
    name: `recipients ?${query}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    request: (f) => get(`/api/v2/sms/${f.uuid}/recipients?${query}`),
  })),

  // cancel carries no body: a broken one is refused before anything changes.
  {
    name: 'cancel with a malformed JSON body',
    status: 400,
    code: 'INVALID_JSON',
    request: (f) => ({
      method: 'POST',
      url: `/api/v2/sms/${f.uuid}/cancel`,
      payload: '{',
      headers: JSON_TYPE,
    }),
  },
  {
    name: 'a malformed %-escape in the path',
    status: 400,
    code: 'INVALID_PARAMETER',
    request: () => get('/api/v2/sms/%zz'),
  },
];

/** `{ sender, content, msisdns: [count × "0812345678"] }` built straight into one Buffer. */
function bodyWithNumbers(sender: string, count: number, extra = ''): Buffer {
  const head = Buffer.from(
    `{"sender":${JSON.stringify(sender)},"content":"Hi"${extra},"msisdns":[`,
  );
  const element = Buffer.from('"0812345678",');
  const body = Buffer.alloc(head.length + count * element.length + 1);
  head.copy(body);
  body.fill(element, head.length, head.length + count * element.length);
  // The last element's comma becomes the array's end; then the object's.
  body[head.length + count * element.length - 1] = 0x5d; // ]
  body[body.length - 1] = 0x7d; // }
  return body;
}

for (const engine of testEngines()) {
  describe(`bad input answers 4xx with { error, code } and changes nothing (${engine.name})`, () => {
    let h: Harness;
    let f: Fixture;

    before(async () => {
      h = await createHarness(engine);
      const c = await h.customer({ credits: 1000 });
      const other = await h.customer({ credits: 1000 });
      const pendingSender = `Pend${c.account.id}`;
      await h.sender(c.account.id, pendingSender, 'pending');
      const template = await h.store.createTemplate({
        accountId: c.account.id,
        name: 'greeting',
        body: 'Hello {{name}}',
        nowMs: h.clock.now(),
      });
      const group = await h.store.createContactGroup({
        accountId: c.account.id,
        name: 'g',
        nowMs: h.clock.now(),
      });
      await h.store.addContacts(group.id, ['0812345678']);
      const emptyGroup = await h.store.createContactGroup({
        accountId: c.account.id,
        name: 'empty',
        nowMs: h.clock.now(),
      });
      const scheduled = await h.request({
        method: 'POST',
        url: SEND,
        key: c.key,
        payload: {
          sender: c.sender,
          content: 'Later',
          msisdns: ['0812345678', 'x'],
          scheduledTime: '2026-12-01T09:00:00+07:00',
        },
      });
      assert.equal(scheduled.statusCode, 200, scheduled.body);
      f = {
        c,
        other,
        pendingSender,
        templateId: template.id,
        groupId: group.id,
        emptyGroupId: emptyGroup.id,
        uuid: scheduled.json().uuid,
      };
    });
    after(() => h.close());

    /** Messages (through the API), balances and ledger sums of both accounts, and the message's status. */
    async function snapshot() {
      const list = await h.request({ method: 'GET', url: '/api/v2/sms', key: f.c.key });
      const otherList = await h.request({ method: 'GET', url: '/api/v2/sms', key: f.other.key });
      const one = await h.request({ method: 'GET', url: `/api/v2/sms/${f.uuid}`, key: f.c.key });
      return {
        messages: list.json().total,
        otherMessages: otherList.json().total,
        balance: (await h.store.findAccount(f.c.account.id))!.balance,
        otherBalance: (await h.store.findAccount(f.other.account.id))!.balance,
        ledgerSum: await h.store.ledgerSum(f.c.account.id),
        otherLedgerSum: await h.store.ledgerSum(f.other.account.id),
        status: one.json().status,
      };
    }

    for (const badInput of CASES) {
      it(`refuses ${badInput.name} with ${badInput.status} ${badInput.code}`, async () => {
        const before = await snapshot();
        const request = badInput.request(f);
        const response = await h.request({ ...request, key: f.c.key });
        assert.ok(response.statusCode < 500, `${response.statusCode}: ${response.body}`);
        expectError(response, badInput.status, badInput.code);
        assert.deepEqual(await snapshot(), before);
      });
    }

    it('starts from a state the cases can change: one scheduled message, 999 credits', async () => {
      const state = await snapshot();
      assert.deepEqual(
        { messages: state.messages, balance: state.balance, status: state.status },
        { messages: 1, balance: 999, status: 'scheduled' },
      );
      assert.equal(state.ledgerSum, state.balance);
    });

    it('refuses 2,000,001 numbers with 400 TOO_MANY_NUMBERS and accepts 2,000,000 in a dryRun', async () => {
      const before = await snapshot();
      const tooMany = await h.request({
        method: 'POST',
        url: SEND,
        key: f.c.key,
        payload: bodyWithNumbers(f.c.sender, 2_000_001),
        headers: JSON_TYPE,
      });
      expectError(tooMany, 400, 'TOO_MANY_NUMBERS');
      const limit = await h.request({
        method: 'POST',
        url: SEND,
        key: f.c.key,
        payload: bodyWithNumbers(f.c.sender, 2_000_000, ',"dryRun":true'),
        headers: JSON_TYPE,
      });
      assert.equal(limit.statusCode, 200, limit.body);
      assert.equal(limit.json().recipients.requested, 2_000_000);
      assert.equal(limit.json().recipients.duplicates, 1_999_999);
      assert.deepEqual(await snapshot(), before);
    });
  });

  describe(`a body over the size limit (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { sendBodyLimitBytes: 1024 });
    });
    after(() => h.close());

    it('answers 413 PAYLOAD_TOO_LARGE on send and preview-cost and stores nothing', async () => {
      const c = await h.customer({ credits: 100 });
      const numbers = Array.from(
        { length: 100 },
        (_, i) => `08123456${String(i).padStart(2, '0')}`,
      );
      const fits = await h.request({
        method: 'POST',
        url: SEND,
        key: c.key,
        payload: { sender: c.sender, content: 'Hi', msisdns: numbers.slice(0, 10) },
      });
      assert.equal(fits.statusCode, 200, fits.body);
      for (const url of [SEND, PREVIEW]) {
        const payload =
          url === SEND
            ? { sender: c.sender, content: 'Hi', msisdns: numbers }
            : { content: 'Hi', msisdns: numbers };
        assert.ok(JSON.stringify(payload).length > 1024);
        expectError(
          await h.request({ method: 'POST', url, key: c.key, payload }),
          413,
          'PAYLOAD_TOO_LARGE',
        );
      }
      const list = await h.request({ method: 'GET', url: '/api/v2/sms', key: c.key });
      assert.equal(list.json().total, 1);
      assert.equal((await h.store.findAccount(c.account.id))!.balance, 90);
      assert.equal(await h.store.ledgerSum(c.account.id), 90);
    });
  });
}
