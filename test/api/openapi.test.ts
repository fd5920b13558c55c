import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { WEBHOOK_EVENT_DESCRIPTIONS } from '../../src/api/contract/webhooks.js';
import { LIMITS } from '../../src/domain/limits.js';
import { eventBody } from '../../src/domain/webhooks/event-body.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/event-types.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

/** The parts of a JSON Schema these tests read. */
interface Schema {
  type?: string | string[];
  const?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  allOf?: Record<string, unknown>[];
  $ref?: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: {
    in: string;
    name: string;
    required?: boolean;
    description?: string;
    schema: Schema;
  }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
  security?: Record<string, string[]>[];
}

/** Every path and method of spec §4, and the export beside them, with the error statuses each can answer. */
const EXPECTED: Record<string, Record<string, number[]>> = {
  '/api/v2/sms/send': { post: [400, 401, 402, 403, 413, 415, 422, 429] },
  '/api/v2/sms/preview-cost': { post: [400, 401, 403, 413, 415, 429] },
  '/api/v2/sms/{uuid}/cancel': { post: [400, 401, 403, 404, 409, 429] },
  '/api/v2/sms': { get: [400, 401, 403, 429] },
  '/api/v2/sms/{uuid}': { get: [400, 401, 403, 404, 429] },
  '/api/v2/sms/{uuid}/recipients': { get: [400, 401, 403, 404, 429] },
  // Beside the spec's recipients path: every recipient, streamed.
  '/api/v2/sms/{uuid}/recipients/export': { get: [400, 401, 403, 404, 429] },
  '/api/v2/sms/credit/balance': { get: [401, 403, 429] },
  '/api/v2/senders': { get: [401, 403, 429] },
};

const ERROR_REF = '#/components/schemas/Error';

// ajv-formats is CommonJS: its default export arrives as the module object under tsx.
const addFormats = ((addFormatsModule as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

for (const engine of testEngines()) {
  describe(`OpenAPI document and docs page (${engine.name})`, () => {
    let h: Harness;
    let doc: Document;
    before(async () => {
      h = await createHarness(engine);
      const response = await h.request({ method: 'GET', url: '/openapi.json' });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      doc = response.json();
    });
    after(() => h.close());

    const operations = () =>
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ path, method, op })),
      );

    it('serves OpenAPI 3.1 at /openapi.json without an API key', () => {
      assert.match(doc.openapi, /^3\.1\.\d+$/);
      assert.ok(doc.info.title.length > 0);
      assert.ok(doc.info.version.length > 0);
    });

    it('lists the eight spec paths and the recipients export with exactly their methods', () => {
      const documented = Object.fromEntries(
        Object.entries(doc.paths)
          .filter(([path]) => path.startsWith('/api/v2'))
          .map(([path, ops]) => [path, Object.keys(ops).sort()]),
      );
      const expected = Object.fromEntries(
        Object.entries(EXPECTED).map(([path, ops]) => [path, Object.keys(ops).sort()]),
      );
      assert.deepEqual(documented, expected);
    });

    it('declares the x-api-key header scheme and applies it to every /api/v2 operation', () => {
      const schemes = Object.entries(doc.components.securitySchemes);
      const apiKey = schemes.find(
        ([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name === 'x-api-key',
      );
      assert.ok(apiKey, JSON.stringify(doc.components.securitySchemes));
      for (const { path, method, op } of operations()) {
        if (!path.startsWith('/api/v2')) continue;
        const security = op.security ?? doc.security;
        assert.ok(
          security?.some((requirement) => apiKey[0] in requirement),
          `${method} ${path} has no x-api-key requirement`,
        );
      }
    });

    it('documents every error status each route answers, each referencing the Error schema', () => {
      for (const [path, ops] of Object.entries(EXPECTED)) {
        for (const [method, statuses] of Object.entries(ops)) {
          const op = doc.paths[path]![method]!;
          const documented = Object.keys(op.responses)
            .map(Number)
            .filter((s) => s >= 400)
            .sort((a, b) => a - b);
          // 503 STORE_UNAVAILABLE: every route reaches the store.
          assert.deepEqual(documented, [...statuses, 503], `${method} ${path}`);
          assert.ok(op.responses['200'], `${method} ${path} has no 200`);
          for (const status of documented) {
            const response = op.responses[String(status)]!;
            assert.ok(
              response.description && response.description.length > 0,
              `${method} ${path} ${status} has no description`,
            );
            assert.equal(
              response.content?.['application/json']?.schema.$ref,
              ERROR_REF,
              `${method} ${path} ${status}`,
            );
          }
        }
      }
    });

    it('defines the Error schema as { error: string, code: string }', () => {
      const error = doc.components.schemas.Error!;
      assert.equal(error.type, 'object');
      assert.equal(error.properties?.error?.type, 'string');
      assert.equal(error.properties?.code?.type, 'string');
      assert.ok(error.required?.includes('error'));
    });

    it('resolves every $ref inside the document', () => {
      const refs: string[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          for (const [key, value] of Object.entries(node)) {
            if (key === '$ref' && typeof value === 'string') refs.push(value);
            else walk(value);
          }
        }
      };
      walk(doc);
      assert.ok(refs.length > 0);
      for (const ref of new Set(refs)) {
        assert.match(ref, /^#\//, `external or relative $ref ${ref}`);
        let target: unknown = doc;
        for (const segment of ref.slice(2).split('/')) {
          target = (target as Record<string, unknown> | undefined)?.[segment];
        }
        assert.ok(target, `unresolved $ref ${ref}`);
      }
    });

    it('documents the uuid path parameter on the message routes', () => {
      for (const path of [
        '/api/v2/sms/{uuid}',
        '/api/v2/sms/{uuid}/cancel',
        '/api/v2/sms/{uuid}/recipients',
      ]) {
        for (const op of Object.values(doc.paths[path]!)) {
          const uuid = op.parameters?.find((p) => p.in === 'path' && p.name === 'uuid');
          assert.ok(uuid?.required, path);
        }
      }
    });

    it('documents the spec limits on the send and preview-cost bodies', () => {
      const send =
        doc.paths['/api/v2/sms/send']!.post!.requestBody!.content['application/json']!.schema;
      assert.deepEqual(Object.keys(send.properties ?? {}).sort(), [
        'contactGroupId',
        'content',
        'dryRun',
        'msisdns',
        'scheduledTime',
        'sender',
        'templateId',
        'variables',
      ]);
      // The spec's numbers (§2.5, §2.6, §8), as src/domain/limits.ts writes them once.
      assert.deepEqual(
        [
          LIMITS.senderNameChars,
          LIMITS.sendContentChars,
          LIMITS.previewContentChars,
          LIMITS.numbersPerRequest,
        ],
        [11, 1_000, 2_000, 2_000_000],
      );
      assert.equal(send.properties?.sender?.maxLength, LIMITS.senderNameChars);
      assert.equal(send.properties?.content?.maxLength, LIMITS.sendContentChars);
      assert.equal(send.properties?.msisdns?.maxItems, LIMITS.numbersPerRequest);
      assert.equal(send.additionalProperties, false);
      const preview = body('/api/v2/sms/preview-cost');
      assert.equal(preview.properties?.content?.maxLength, LIMITS.previewContentChars);
      assert.equal(preview.properties?.msisdns?.maxItems, LIMITS.numbersPerRequest);
      assert.equal(preview.properties?.sender, undefined);
    });

    const body = (path: string) =>
      doc.paths[path]!.post!.requestBody!.content['application/json']!.schema;
    const matches = (schema: Schema | undefined, text: string) =>
      new RegExp(schema!.pattern!, 'u').test(text);

    it('publishes the NUL rule on content: not empty, not only spaces, no U+0000', () => {
      for (const path of ['/api/v2/sms/send', '/api/v2/sms/preview-cost']) {
        const content = body(path).properties!.content!;
        assert.equal(content.minLength, 1, path);
        assert.deepEqual(
          ['Hello', ' สวัสดี 😀 ', 'a\u0000b', '\u0000', '   ', '\n\t'].map((text) =>
            matches(content, text),
          ),
          [true, true, false, false, false, false],
          path,
        );
      }
    });

    it('publishes the rules across members: one of content or templateId, recipients, variables only with a template', () => {
      for (const path of ['/api/v2/sms/send', '/api/v2/sms/preview-cost']) {
        const rules = body(path).allOf ?? [];
        assert.deepEqual(
          rules.find((rule) => 'oneOf' in rule),
          { oneOf: [{ required: ['content'] }, { required: ['templateId'] }] },
          `${path}: exactly one of content and templateId`,
        );
        // msisdns, contactGroupId or both (the union is sent); msisdns alone holds a valid number.
        const recipients = rules.find((rule) => 'anyOf' in rule)?.anyOf as Schema[];
        assert.deepEqual(
          recipients.map((branch) => branch.required),
          [['msisdns'], ['contactGroupId']],
          `${path}: at least one of msisdns and contactGroupId`,
        );
        const valid = (recipients[0]!.properties!.msisdns as { contains: Schema }).contains;
        assert.deepEqual(
          ['0812345678', '66812345678', '812345678', '+66812345678', 'bad'].map((n) =>
            matches(valid, n),
          ),
          [true, true, false, false, false],
        );
        assert.deepEqual(
          rules.find((rule) => 'dependentRequired' in rule),
          { dependentRequired: { variables: ['templateId'] } },
          path,
        );
      }
    });

    it('publishes ids as integers of at least 1', () => {
      for (const path of ['/api/v2/sms/send', '/api/v2/sms/preview-cost']) {
        for (const name of ['templateId', 'contactGroupId']) {
          const id = body(path).properties![name]!;
          assert.deepEqual(
            [id.type, id.minimum, id.maximum],
            ['integer', 1, Number.MAX_SAFE_INTEGER],
            `${path} ${name}`,
          );
        }
      }
    });

    it('publishes scheduledTime, from and to as date-times (from and to also as dates)', () => {
      const dateTimes = ['2026-12-01T09:30:00+07:00', '2026-12-01T02:30:00.5Z'];
      const notDateTimes = ['2026-12-01T09:30+07:00', '2026-12-01T09:30:00', '2026-12-01'];
      const scheduledTime = body('/api/v2/sms/send').properties!.scheduledTime!;
      assert.equal(scheduledTime.format, 'date-time');
      assert.deepEqual(
        [...dateTimes, ...notDateTimes].map((text) => matches(scheduledTime, text)),
        [true, true, false, false, false],
      );
      const list = doc.paths['/api/v2/sms']!.get!.parameters!;
      for (const name of ['from', 'to']) {
        const schema = list.find((p) => p.in === 'query' && p.name === name)!.schema;
        assert.deepEqual(
          schema.anyOf?.map((branch) => branch.format),
          ['date', 'date-time'],
          name,
        );
        const [date, dateTime] = schema.anyOf!;
        assert.ok(matches(date, '2026-12-01') && !matches(date, '2026-12-1'), name);
        assert.deepEqual(
          [...dateTimes, ...notDateTimes].map((text) => matches(dateTime, text)),
          [true, true, false, false, false],
          name,
        );
      }
    });

    it('publishes the Idempotency-Key header: 1 to 255 printable ASCII characters', () => {
      const header = doc.paths['/api/v2/sms/send']!.post!.parameters!.find(
        (p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
      );
      assert.ok(header, 'send documents its Idempotency-Key header');
      assert.equal(header.required ?? false, false);
      const schema = header.schema;
      assert.deepEqual([schema.minLength, schema.maxLength], [1, LIMITS.idempotencyKeyChars]);
      assert.deepEqual(
        [
          'order-2026-0001',
          'x'.repeat(LIMITS.idempotencyKeyChars),
          '',
          'a b',
          'é',
          'x'.repeat(LIMITS.idempotencyKeyChars + 1),
        ].map((key) => matches(schema, key)),
        [true, true, false, false, false, false],
      );
    });

    it('documents the list and recipients query parameters with their limits and enums', () => {
      const query = (path: string) =>
        Object.fromEntries(
          (doc.paths[path]!.get!.parameters ?? [])
            .filter((p) => p.in === 'query')
            .map((p) => [p.name, p.schema]),
        );
      const list = query('/api/v2/sms');
      assert.deepEqual(Object.keys(list).sort(), [
        'from',
        'limit',
        'page',
        'search',
        'sender',
        'status',
        'to',
      ]);
      assert.deepEqual(
        [list.limit!.default, list.limit!.maximum, list.page!.default],
        [20, 100, 1],
      );
      assert.deepEqual(list.status!.enum, ['sent', 'failed', 'pending', 'scheduled', 'cancelled']);
      const recipients = query('/api/v2/sms/{uuid}/recipients');
      assert.deepEqual(Object.keys(recipients).sort(), ['after', 'limit', 'search', 'status']);
      assert.deepEqual(
        [recipients.limit!.default, recipients.limit!.maximum, recipients.after!.minimum],
        [50, 50, 0],
      );
      assert.deepEqual(recipients.status!.enum, [
        'pending',
        'success',
        'failed',
        'invalid',
        'blocked',
        'expired',
        'timeout',
      ]);
    });

    const webhookBody = (type: string) =>
      doc.webhooks[type]!.post!.requestBody!.content['application/json']!.schema;

    it('documents every webhook event type in `webhooks`, each a POST of `{ type, timestamp, data }`', () => {
      assert.deepEqual(Object.keys(doc.webhooks), [...WEBHOOK_EVENT_TYPES]);
      const operationIds = new Set<string>();
      for (const type of WEBHOOK_EVENT_TYPES) {
        assert.deepEqual(Object.keys(doc.webhooks[type]!), ['post'], type);
        const op = doc.webhooks[type]!.post!;
        assert.match(op.operationId ?? '', /^webhook_[a-z][A-Za-z]+$/, type);
        operationIds.add(op.operationId!);
        assert.ok(WEBHOOK_EVENT_DESCRIPTIONS[type].startsWith(op.summary ?? '-'), type);
        assert.ok(op.description?.startsWith(WEBHOOK_EVENT_DESCRIPTIONS[type]), type);
        // Nok's request carries a signature, not an API key.
        assert.deepEqual(op.security, [], type);
        assert.equal(op.requestBody?.required, true, type);
        const body = webhookBody(type);
        assert.equal(body.type, 'object', type);
        assert.deepEqual(body.required, ['type', 'timestamp', 'data'], type);
        assert.equal(
          body.properties?.type?.const,
          type,
          `${type}: its body's type is the constant`,
        );
        assert.equal(body.properties?.timestamp?.format, 'date-time', type);
      }
      assert.equal(operationIds.size, WEBHOOK_EVENT_TYPES.length, 'operationIds are unique');
      assert.equal(doc.webhooks['recipients.final']!.post!.operationId, 'webhook_recipientsFinal');
    });

    it('documents the Standard Webhooks headers and what an answer means on every webhook', () => {
      for (const type of WEBHOOK_EVENT_TYPES) {
        const op = doc.webhooks[type]!.post!;
        const headers = Object.fromEntries(
          (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => [p.name, p]),
        );
        assert.deepEqual(
          Object.keys(headers).sort(),
          ['webhook-id', 'webhook-signature', 'webhook-timestamp'],
          type,
        );
        for (const header of Object.values(headers)) {
          assert.equal(header.required, true, `${type} ${header.name}`);
          assert.equal(header.schema.type, 'string', `${type} ${header.name}`);
          assert.ok((header.description ?? '').length > 40, `${type} ${header.name}`);
        }
        assert.match(headers['webhook-signature']!.description!, /HMAC-SHA256/);
        assert.match(headers['webhook-signature']!.description!, /whsec_/);
        assert.match(headers['webhook-timestamp']!.description!, /seconds/);
        assert.ok(op.responses['2XX']?.description, `${type}: 2XX`);
        assert.match(op.responses.default?.description ?? '', /NOK_WEBHOOK_RETRY_WINDOW_HOURS/);
        assert.match(op.responses['410']?.description ?? '', /disables the endpoint/);
      }
    });

    it("references the API's own components from the webhook bodies: one Message schema", () => {
      const message =
        doc.paths['/api/v2/sms/{uuid}']!.get!.responses['200']!.content!['application/json']!
          .schema;
      assert.equal(message.$ref, '#/components/schemas/Message');
      for (const type of ['message.completed', 'message.released', 'message.cancelled']) {
        assert.equal(webhookBody(type).properties?.data?.$ref, message.$ref, type);
      }
      assert.equal(
        webhookBody('recipients.final').properties?.data?.$ref,
        '#/components/schemas/RecipientsFinalData',
      );
    });

    it('accepts, by its webhook schemas compiled as JSON Schema 2020-12, the bodies Nok posts', async () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      const id = 'https://nok.invalid/openapi.json';
      ajv.addSchema(doc as object, id);
      const validatorOf = (type: string) => {
        const validate = ajv.getSchema(
          `${id}#/webhooks/${type}/post/requestBody/content/application~1json/schema`,
        );
        assert.ok(validate, type);
        return validate;
      };

      // A message and its recipients as the API answers them: the events carry the same.
      const customer = await h.customer();
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Hello',
        msisdns: ['0812345678', '0898765432'],
      });
      const message = (
        await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key: customer.key })
      ).json() as { refNo: string };
      const recipients = (
        await h.request({
          method: 'GET',
          url: `/api/v2/sms/${uuid}/recipients`,
          key: customer.key,
        })
      ).json() as { data: unknown[] };
      const data: Record<(typeof WEBHOOK_EVENT_TYPES)[number], unknown> = {
        'recipients.final': {
          messageUuid: uuid,
          refNo: message.refNo,
          recipients: recipients.data,
        },
        'message.completed': message,
        'message.released': message,
        'message.cancelled': message,
        'sender.reviewed': { name: 'MYSHOP', decision: 'changes_requested', note: 'A document' },
        'balance.low': { balance: 90, threshold: 100 },
        'webhook.test': { endpointId: 'ep_abc', note: 'A test event from Nok.' },
      };
      for (const type of WEBHOOK_EVENT_TYPES) {
        const validate = validatorOf(type);
        const body = JSON.parse(eventBody(type, h.clock.now(), data[type])) as {
          type: string;
          data: unknown;
        };
        assert.ok(validate(body), `${type}: ${ajv.errorsText(validate.errors)}`);
        const other = WEBHOOK_EVENT_TYPES.find((t) => t !== type)!;
        assert.equal(validate({ ...body, type: other }), false, `${type} refuses type ${other}`);
        assert.equal(validate({ ...body, data: undefined }), false, `${type} requires data`);
      }
    });

    it('answers /docs with an HTML page, following a redirect if there is one', async () => {
      let url = '/docs';
      let response = await h.request({ method: 'GET', url });
      for (
        let hops = 0;
        response.statusCode >= 300 && response.statusCode < 400 && hops < 5;
        hops++
      ) {
        const location = String(response.headers.location);
        url = new URL(location, `http://localhost${url}`).pathname;
        response = await h.request({ method: 'GET', url });
      }
      assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /<html/i);
    });
  });
}
