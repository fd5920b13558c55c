import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { ErrorCode } from '../../src/domain/errors.js';
import { fromLedger } from '../../src/storage/from-ledger.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import {
  ServedContract,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../support/served-contract.js';

/**
 * Requests generated from the served /openapi.json, valid and invalid, against the real app on
 * each engine. Each answer must be no 5xx; every 4xx exactly `{ error, code }`; a refused
 * request must change nothing (balance, ledger, messages). The harness's request helper also
 * holds every answer to the document (status documented, body matching its schema).
 *
 * The document and the server must also agree on every request: each is validated as sent (path,
 * query, headers, JSON body) against the document with ajv. One the document refuses must be
 * refused (4xx); one it accepts may be refused only for what no schema can know (CODE_KINDS and
 * RULES_NO_SCHEMA_STATES below), never for its shape. So a document that grows looser than the
 * server, or a server looser than its document, fails here.
 *
 * Values come from each parameter's and property's schema (types, bounds, enums, patterns,
 * formats), mixed with the rig's real sender, ids and uuids so that valid requests reach the
 * store; invalid variants break one rule: a wrong type, one past a bound, NUL, a date that does
 * not exist, an unknown member, a missing required one, a body that is not JSON. Fixed seed;
 * on failure fast-check prints seed and path.
 *
 * A second property draws only requests the API accepts, by the rules that make them so: sends
 * (content or template, numbers, a group or both, now or scheduled, dry runs, Idempotency-Key),
 * previews and list queries (filters, paging, recipients by cursor). Each must answer 200 with a
 * body the document accepts, keep balance = ledger sum, charge a send exactly its cost in its
 * own ledger rows, and leave the money alone for a read or a dry run.
 */
const SEED = 20_261_123;
const RUNS = 400;
/** Runs of the accepted-requests property, each one request. */
const ACCEPTED_RUNS = 150;

/**
 * How each error code stands to the document (codes: src/domain/errors.ts; statuses:
 * src/api/plugins/error-handler.ts). `shape`: the request's form is wrong, which the document
 * says too, so a request it accepts never gets one (but see RULES_NO_SCHEMA_STATES). `semantic`:
 * the form is right and the state says no: who asks, what exists and whose it is, the balance,
 * earlier requests, the rate. `elsewhere`: not answered on /api/v2 (the console's, or 5xx).
 * A Record, so a new code does not compile until it is placed here.
 */
const CODE_KINDS: Record<ErrorCode, 'shape' | 'semantic' | 'elsewhere'> = {
  INVALID_JSON: 'shape',
  INVALID_PARAMETER: 'shape',
  INVALID_NUMBER: 'shape',
  TOO_MANY_NUMBERS: 'shape',
  CONTENT_TOO_LONG: 'shape',
  INVALID_SCHEDULED_TIME: 'shape',
  PAYLOAD_TOO_LARGE: 'shape',
  UNSUPPORTED_MEDIA_TYPE: 'shape',
  METHOD_NOT_ALLOWED: 'shape',
  UNAUTHORIZED: 'semantic',
  SCOPE_INSUFFICIENT: 'semantic',
  FORBIDDEN: 'semantic',
  ACCOUNT_SUSPENDED: 'semantic',
  NOT_FOUND: 'semantic',
  SENDER_NOT_FOUND: 'semantic',
  SENDER_NOT_APPROVED: 'semantic',
  TEMPLATE_NOT_FOUND: 'semantic',
  // The template's body names the placeholders.
  TEMPLATE_VARIABLE_MISSING: 'semantic',
  CONTACT_GROUP_NOT_FOUND: 'semantic',
  INSUFFICIENT_CREDITS: 'semantic',
  NOT_SCHEDULED: 'semantic',
  ALREADY_CANCELLED: 'semantic',
  ALREADY_PROCESSING: 'semantic',
  IDEMPOTENCY_KEY_REUSED: 'semantic',
  RATE_LIMITED: 'semantic',
  CSRF_FAILED: 'elsewhere',
  TOTP_REQUIRED: 'elsewhere',
  TOTP_ENROLMENT_REQUIRED: 'elsewhere',
  TOTP_CODE_INVALID: 'elsewhere',
  SENDER_NAME_TAKEN: 'elsewhere',
  INVALID_TRANSITION: 'elsewhere',
  EMAIL_TAKEN: 'elsewhere',
  ALREADY_INVITED: 'elsewhere',
  NOT_REMOVABLE: 'elsewhere',
  LINK_USED: 'elsewhere',
  LINK_EXPIRED: 'elsewhere',
  DOCUMENT_TOO_LARGE: 'elsewhere',
  DOCUMENT_TYPE_NOT_ALLOWED: 'elsewhere',
  DOCUMENT_TYPE_MISMATCH: 'elsewhere',
  STORE_UNAVAILABLE: 'elsewhere',
  INTERNAL: 'elsewhere',
};

/**
 * The refusals with a shape code that a request the document accepts may still get: rules on
 * values that a schema cannot state, because they compare two members, or depend on the clock
 * or on what a contact group holds.
 */
const RULES_NO_SCHEMA_STATES: {
  readonly code: ErrorCode;
  readonly error: RegExp;
  readonly when?: (body: Record<string, unknown>) => boolean;
  readonly why: string;
}[] = [
  { code: 'INVALID_PARAMETER', error: /^from must not be after to$/, why: 'compares two values' },
  {
    code: 'INVALID_SCHEDULED_TIME',
    error: /^scheduledTime must be in the future$/,
    why: 'depends on the clock',
  },
  {
    code: 'INVALID_PARAMETER',
    error: /^The contact group has no numbers$/,
    why: 'depends on the group’s members',
  },
  {
    code: 'INVALID_NUMBER',
    error: /^No valid number/,
    when: (body) => body.contactGroupId !== undefined,
    why: 'whether the union holds a valid number depends on the group’s members',
  },
];

type Schema = Record<string, unknown> & {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  anyOf?: Schema[];
  allOf?: unknown[];
};

interface Rig {
  readonly h: Harness;
  readonly doc: OpenApiDocument;
  readonly contract: ServedContract;
  readonly c: Customer;
  readonly readOnlyKey: string;
  readonly other: Customer;
  readonly uuids: string[];
  readonly otherUuid: string;
  readonly templateId: number;
  readonly groupId: number;
  readonly otherTemplateId: number;
}

interface GeneratedRequest {
  readonly method: string;
  /** The document's path, e.g. /api/v2/sms/{uuid}. */
  readonly template: string;
  readonly url: string;
  readonly key?: string;
  readonly headers: Record<string, string>;
  /** The body's text, sent as application/json: JSON mostly, now and then not. */
  readonly body?: string;
}

const tally = new Map<string, number>();

for (const engine of testEngines()) {
  describe(`requests generated from /openapi.json (${engine.name})`, () => {
    let rig: Rig;
    before(async () => {
      const h = await createHarness(engine);
      const served = await h.request({ method: 'GET', url: '/openapi.json' });
      const c = await h.customer({ credits: 10_000_000 });
      const other = await h.customer();
      const readOnlyKey = (await h.key(c.account.id, ['sms:read'])).key;
      const nowMs = h.clock.now();
      const template = await h.store.createTemplate({
        accountId: c.account.id,
        name: 't',
        body: 'Hello {{name}}',
        nowMs,
      });
      const otherTemplate = await h.store.createTemplate({
        accountId: other.account.id,
        name: 't',
        body: 'Hi',
        nowMs,
      });
      const group = await h.store.createContactGroup({ accountId: c.account.id, name: 'g', nowMs });
      await h.store.addContacts(group.id, ['66812345678', '66812345679']);
      const scheduled = await h.send(c, {
        sender: c.sender,
        content: 'later',
        msisdns: ['0812345678'],
        scheduledTime: new Date(nowMs + 86_400_000).toISOString(),
      });
      const now = await h.send(c, { sender: c.sender, content: 'now', msisdns: ['0812345678'] });
      const theirs = await h.send(other, {
        sender: other.sender,
        content: 'theirs',
        msisdns: ['0812345678'],
      });
      rig = {
        h,
        doc: served.json(),
        contract: await ServedContract.load(h.app),
        c,
        readOnlyKey,
        other,
        uuids: [scheduled.uuid, now.uuid],
        otherUuid: theirs.uuid,
        templateId: template.id,
        groupId: group.id,
        otherTemplateId: otherTemplate.id,
      };
    });
    after(() => rig.h.close());

    it('never answers 5xx; every 4xx is { error, code } and changes nothing; refuses what the document refuses and nothing else for its shape', async (t) => {
      tally.clear();
      const examples = ruleBreakingExamples(rig);
      t.diagnostic(`${examples.length} examples, each breaking one rule of the document`);
      await fc.assert(
        fc.asyncProperty(requestOf(rig), async (request) => {
          const problems = rig.contract.requestProblems({
            method: request.method,
            url: request.url,
            headers: sentHeaders(request),
            body: request.body,
          });
          const before = await snapshot(rig);
          const response = await inject(rig, request);
          const where = `${request.method} ${request.url} ${request.headers['idempotency-key'] ?? ''} ${request.body ?? ''} → ${response.statusCode} ${response.body.slice(0, 200)}`;
          const verdict = problems.length > 0 ? 'refused' : 'accepted';
          for (const what of [
            `${request.method} ${request.template} ${response.statusCode}`,
            `${request.method} ${request.template} document ${verdict}`,
          ])
            tally.set(what, (tally.get(what) ?? 0) + 1);
          assert.ok(response.statusCode < 500, where);
          if (problems.length > 0) {
            assert.ok(
              response.statusCode >= 400,
              `${where}: the document refuses it (${problems.join('; ')}), the server did not`,
            );
          }
          if (response.statusCode >= 400) {
            const body = response.json() as Record<string, unknown>;
            assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], where);
            assert.equal(body.requestId, response.headers['x-request-id'], where);
            assert.equal(typeof body.error, 'string', where);
            assert.equal(typeof body.code, 'string', where);
            assert.deepEqual(
              await snapshot(rig),
              before,
              `${where}: a refused request changed the store`,
            );
            if (problems.length === 0) {
              assert.ok(
                refusedForState(body as { code: ErrorCode; error: string }, request.body),
                `${where}: the document accepts it, the server refused its shape`,
              );
            }
          }
        }),
        {
          seed: SEED,
          numRuns: RUNS + examples.length,
          examples: examples.map((request) => [request]),
        },
      );
      const counted = [...tally].sort(([a], [b]) => a.localeCompare(b));
      t.diagnostic(counted.map(([what, n]) => `${what}: ${n}`).join('; '));
      // The generator must reach what the property is about: accepted and refused writes.
      // (Its random draws seldom reach an accepted send, too many rules must hold at once: the
      // examples' own requests and the property below do.)
      for (const what of [
        'POST /api/v2/sms/send 200',
        'POST /api/v2/sms/send 400',
        'POST /api/v2/sms/send 403',
        'POST /api/v2/sms/preview-cost 200',
        'POST /api/v2/sms/preview-cost 400',
        'GET /api/v2/sms 200',
        'GET /api/v2/sms 400',
        'GET /api/v2/sms/{uuid}/recipients 200',
        // Both sides of the agreement, for each operation that takes input.
        ...['POST /api/v2/sms/send', 'POST /api/v2/sms/preview-cost', 'GET /api/v2/sms'].flatMap(
          (op) => [`${op} document accepted`, `${op} document refused`],
        ),
        'GET /api/v2/sms/{uuid}/recipients document refused',
      ])
        assert.ok((tally.get(what) ?? 0) > 0, `no ${what} in ${RUNS} runs`);
    });

    it('accepts valid sends, previews and list queries: 2xx, the document, money balanced', async (t) => {
      tally.clear();
      await fc.assert(
        fc.asyncProperty(acceptedRequestOf(rig), async (request) => {
          const before = await money(rig);
          const response = await inject(rig, { ...request, key: rig.c.key });
          const where = `${request.method} ${request.url} ${JSON.stringify(request.payload)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          for (const feature of request.features) tally.set(feature, (tally.get(feature) ?? 0) + 1);
          // The harness has already held the answer to the served document (its status is
          // documented for the operation, its body matches the schema).
          assert.equal(response.statusCode, 200, where);
          // And the document accepts what the server did: it is no stricter either.
          const problems = rig.contract.requestProblems({
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: request.payload === undefined ? undefined : JSON.stringify(request.payload),
          });
          assert.deepEqual(problems, [], `${where}: accepted, yet the document refuses it`);
          const body = response.json() as Record<string, unknown>;
          const after = await money(rig);
          assert.equal(after.balance, after.ledgerSum, `${where}: balance ≠ ledger sum`);
          assert.ok(after.balance >= 0, `${where}: negative balance`);
          if (request.charges) {
            const cost = body.cost as number;
            assert.ok(Number.isInteger(cost) && cost >= 0, where);
            assert.equal(after.balance, before.balance - cost, `${where}: charged ≠ cost`);
            assert.equal(body.balance, after.balance, `${where}: answered balance`);
            assert.equal(
              await ledgerOf(rig, body.uuid as string),
              -cost,
              `${where}: the message's ledger rows ≠ its cost`,
            );
            rig.uuids.push(body.uuid as string);
          } else {
            assert.deepEqual(after, before, `${where}: a read or a dry run changed the money`);
          }
          request.check?.(body, where);
        }),
        { seed: SEED, numRuns: ACCEPTED_RUNS },
      );
      const counted = [...tally].sort(([a], [b]) => a.localeCompare(b));
      t.diagnostic(counted.map(([what, n]) => `${what}: ${n}`).join('; '));
      // Every kind of accepted request is reached.
      for (const feature of ACCEPTED_FEATURES)
        assert.ok((tally.get(feature) ?? 0) > 0, `no ${feature} in ${ACCEPTED_RUNS} runs`);
    });
  });
}

/** One drawn request through the app (and the harness's check against the document). */
function inject(
  rig: Rig,
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    key?: string;
    payload?: unknown;
    body?: string;
  },
) {
  return rig.h.request({
    method: request.method as 'GET',
    url: request.url,
    headers: request.body === undefined ? request.headers : sentHeaders(request),
    ...(request.key === undefined ? {} : { key: request.key }),
    ...(request.payload === undefined ? {} : { payload: request.payload as object }),
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
}

/** The headers a generated request is sent with (the key is the harness's to add). */
function sentHeaders(request: { headers: Record<string, string>; body?: string }) {
  return request.body === undefined
    ? request.headers
    : { ...request.headers, 'content-type': 'application/json' };
}

/** Whether a refusal of a request the document accepts comes from what no schema can know. */
function refusedForState(answer: { code: ErrorCode; error: string }, sentBody?: string): boolean {
  const kind = CODE_KINDS[answer.code];
  if (kind === 'semantic') return true;
  if (kind !== 'shape') return false;
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = sentBody === undefined ? {} : JSON.parse(sentBody);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    return false;
  }
  return RULES_NO_SCHEMA_STATES.some(
    (rule) =>
      rule.code === answer.code && rule.error.test(answer.error) && (rule.when?.(body) ?? true),
  );
}

/** What a refused request must leave as it was: both accounts' money and messages. */
async function snapshot(rig: Rig): Promise<unknown> {
  const db = rig.h.db.database.db;
  const ids = [rig.c.account.id, rig.other.account.id];
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'balance'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const ledger = await fromLedger(db)
    .select(({ fn }) => [fn.countAll().as('rows'), fn.sum('delta').as('sum')])
    .where('account_id', 'in', ids)
    .executeTakeFirstOrThrow();
  const messages = await db
    .selectFrom('messages')
    .select(['uuid', 'status', 'cost'])
    .where('account_id', 'in', ids)
    .orderBy('uuid')
    .execute();
  return {
    accounts: accounts.map((a) => [Number(a.id), Number(a.balance)]),
    ledger: [Number(ledger.rows), Number(ledger.sum)],
    messages: messages.map((m) => [m.uuid, m.status, Number(m.cost)]),
  };
}

/**
 * One rule of the document broken on purpose: a parameter's value, a body member's value, or a
 * rule of the body as a whole (its members together, or its being a JSON object at all).
 */
type Broken =
  | { readonly kind: 'none' }
  | { readonly kind: 'parameter'; readonly index: number; readonly value: unknown }
  | { readonly kind: 'member'; readonly name: string; readonly value: unknown }
  | { readonly kind: 'body'; readonly text: BodyText };

/** A body's text from its members as drawn (`body`) and every member drawn valid (`all`). */
type BodyText = (body: Record<string, unknown>, all: Record<string, unknown>) => string;

interface Operation {
  readonly path: string;
  readonly method: string;
  readonly op: OpenApiOperation;
}

/** The document's /api/v2 operations, with the parts a request is drawn from. */
function operationsOf(rig: Rig) {
  return Object.entries(rig.doc.paths)
    .filter(([path]) => path.startsWith('/api/v2'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
    .map((operation: Operation) => {
      const params = operation.op.parameters ?? [];
      return {
        ...operation,
        pathParams: params.filter((p) => p.in === 'path'),
        inputs: params.filter((p) => p.in === 'query' || p.in === 'header'),
        bodySchema: operation.op.requestBody?.content['application/json']?.schema as
          Schema | undefined,
      };
    });
}

type DrawnOperation = ReturnType<typeof operationsOf>[number];

/**
 * One request: an operation of the document, with parameters and a body its schemas accept,
 * and half the time exactly one rule broken. (The examples break each rule in turn; see
 * ruleBreakingExamples.)
 */
function requestOf(rig: Rig): fc.Arbitrary<GeneratedRequest> {
  const key = fc.oneof(
    { weight: 8, arbitrary: fc.constant(rig.c.key) },
    { weight: 1, arbitrary: fc.constant(rig.readOnlyKey) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'nok_bad_key', rig.other.key) },
  );
  return fc.constantFrom(...operationsOf(rig)).chain((operation) => {
    const { pathParams, inputs, bodySchema } = operation;
    const breaks: fc.Arbitrary<Broken>[] = inputs.map((p, index) =>
      fc
        .constantFrom(...invalidValues(p.schema as Schema))
        .map((value) => ({ kind: 'parameter' as const, index, value })),
    );
    if (bodySchema) {
      breaks.push(
        memberBroken(bodySchema),
        fc.constantFrom(...bodyTexts(bodySchema)).map((text) => ({ kind: 'body' as const, text })),
      );
    }
    const broken: fc.Arbitrary<Broken> =
      breaks.length === 0
        ? fc.constant({ kind: 'none' })
        : fc.oneof(fc.constant({ kind: 'none' as const }), fc.oneof(...breaks));
    return fc
      .record({
        pathValues: fc.tuple(...pathParams.map(() => uuidOf(rig))),
        inputValues: fc.tuple(
          ...inputs.map((p) =>
            fc.option(valid(rig, p.name, p.schema as Schema), { nil: undefined }),
          ),
        ),
        members: bodySchema ? membersOf(rig, bodySchema) : fc.constant(undefined),
        broken,
        key,
      })
      .map(({ pathValues, inputValues, members, broken: b, key: k }) =>
        assemble(operation, pathValues, inputValues, members, b, k),
      );
  });
}

/** The request as sent: values into the path, query and headers, the body as text, one rule broken. */
function assemble(
  { path, method, pathParams, inputs }: DrawnOperation,
  pathValues: readonly unknown[],
  inputValues: readonly unknown[],
  members: { body: Record<string, unknown>; all: Record<string, unknown> } | undefined,
  broken: Broken,
  key: string | undefined,
): GeneratedRequest {
  let url = path;
  pathParams.forEach((p, i) => {
    url = url.replace(`{${p.name}}`, encodeURIComponent(String(pathValues[i])));
  });
  const values = [...inputValues];
  if (broken.kind === 'parameter') values[broken.index] = broken.value;
  const search = new URLSearchParams();
  const headers: Record<string, string> = {};
  inputs.forEach((p, i) => {
    const value = values[i];
    if (value === undefined) return;
    if (p.in === 'query') search.set(p.name, String(value));
    // A header carries visible ASCII only: other values cannot be sent at all.
    else if (/^[\x20-\x7e]*$/.test(String(value))) headers[p.name] = String(value);
  });
  let body: string | undefined;
  if (members) {
    if (broken.kind === 'member')
      body = JSON.stringify({ ...members.body, [broken.name]: broken.value });
    else if (broken.kind === 'body') body = broken.text(members.body, members.all);
    else body = JSON.stringify(members.body);
  }
  const qs = search.toString();
  return {
    method: method.toUpperCase(),
    template: path,
    url: qs ? `${url}?${qs}` : url,
    key,
    headers,
    body,
  };
}

/**
 * Every rule the document states for an input, broken alone on a request that is otherwise the
 * customer's own and valid (its own key, sender, template and group, the rules across members
 * followed): each value `invalidValues` has for each parameter and member, and each rule of a
 * body as a whole. A rule the document dropped, or one the server does not apply, shows here
 * whatever the random draws reach.
 */
function ruleBreakingExamples(rig: Rig): GeneratedRequest[] {
  const examples: GeneratedRequest[] = [];
  for (const operation of operationsOf(rig)) {
    const { pathParams, inputs, bodySchema } = operation;
    if (inputs.length === 0 && !bodySchema) continue;
    const pathValues = pathParams.map(() => rig.uuids[0]!);
    const inputValues = inputs.map(() => undefined);
    const members = bodySchema ? baselineMembers(rig, bodySchema) : undefined;
    const build = (broken: Broken) =>
      assemble(operation, pathValues, inputValues, members, broken, rig.c.key);
    examples.push(build({ kind: 'none' }));
    inputs.forEach((p, index) => {
      for (const value of invalidValues(p.schema as Schema))
        examples.push(build({ kind: 'parameter', index, value }));
    });
    if (bodySchema) {
      for (const [name, schema] of Object.entries(bodySchema.properties ?? {}))
        for (const value of invalidValues(schema))
          examples.push(build({ kind: 'member', name, value }));
      for (const text of bodyTexts(bodySchema)) examples.push(build({ kind: 'body', text }));
    }
  }
  return examples;
}

/**
 * The members of a body the customer's own request would have: the required ones and the first
 * branch of each rule across members (`body`), and a value of every member (`all`) for the
 * breakers of those rules.
 */
function baselineMembers(rig: Rig, schema: Schema) {
  const properties = schema.properties ?? {};
  const all: Record<string, unknown> = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, canonical(rig, name, property)]),
  );
  const wanted = new Set(schema.required ?? []);
  for (const rule of (schema.allOf ?? []) as MemberRule[]) {
    for (const name of (rule.oneOf ?? rule.anyOf ?? [])[0]?.required ?? []) wanted.add(name);
  }
  return { body: pick(all, [...wanted]), all };
}

/** A value of the customer's own that the schema accepts, the same on every run. */
function canonical(rig: Rig, name: string, schema: Schema): unknown {
  switch (name) {
    case 'sender':
      return rig.c.sender;
    case 'content':
      return 'Hello';
    case 'msisdns':
      return ['0812345678'];
    case 'templateId':
      return rig.templateId;
    case 'contactGroupId':
      return rig.groupId;
    case 'variables':
      return { name: 'Ann' };
    case 'scheduledTime':
      return new Date(rig.h.clock.now() + 86_400_000).toISOString();
  }
  if (schema.enum) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'a';
  }
}

function uuidOf(rig: Rig): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...rig.uuids, rig.otherUuid),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 40 }),
  );
}

/**
 * A body's members as the schema accepts them (`body`: the optional ones drawn or not, the
 * rules across members followed), and a valid value of every member (`all`), which the
 * breakers of those rules draw on.
 */
function membersOf(rig: Rig, schema: Schema) {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const required = new Set(schema.required ?? []);
  const validOf = (n: string) => valid(rig, n, properties[n]!);
  return fc
    .record({
      drawn: fc.record(Object.fromEntries(names.map((n) => [n, validOf(n)])), {
        requiredKeys: [...required],
      }),
      all: fc.record(Object.fromEntries(names.map((n) => [n, validOf(n)]))),
      choices: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
    })
    .map(({ drawn, all, choices }) => ({
      body: followMemberRules(schema, drawn, choices),
      all: all as Record<string, unknown>,
    }));
}

/** One member's value breaking a rule of its own schema. */
function memberBroken(schema: Schema): fc.Arbitrary<Broken> {
  const properties = schema.properties ?? {};
  return fc
    .constantFrom(...Object.keys(properties))
    .chain((name) =>
      fc
        .constantFrom(...invalidValues(properties[name]!))
        .map((value) => ({ kind: 'member' as const, name, value })),
    );
}

/** Bodies breaking a rule of the body as a whole: its members together, or being a JSON object. */
function bodyTexts(schema: Schema): BodyText[] {
  const rules = (schema.allOf ?? []) as MemberRule[];
  const namesOf = (branches: { required: string[] }[]) => branches.flatMap((b) => b.required);
  const texts: BodyText[] = [
    (body) => JSON.stringify({ ...body, unknownMember: 1 }),
    ...(schema.required ?? []).map(
      (name): BodyText =>
        (body) =>
          JSON.stringify(omit(body, [name])),
    ),
    ...rules.flatMap((rule): BodyText[] => {
      const out: BodyText[] = [];
      // Every branch of a oneOf at once, and none of it; none of an anyOf.
      if (rule.oneOf) {
        const names = namesOf(rule.oneOf);
        out.push((body, all) => JSON.stringify({ ...body, ...pick(all, names) }));
        out.push((body) => JSON.stringify(omit(body, names)));
      }
      if (rule.anyOf) {
        const names = namesOf(rule.anyOf);
        out.push((body) => JSON.stringify(omit(body, names)));
      }
      // A member without the members it depends on.
      for (const [name, needs] of Object.entries(rule.dependentRequired ?? {})) {
        out.push((body, all) => JSON.stringify({ ...omit(body, needs), [name]: all[name] }));
      }
      return out;
    }),
    // JSON that is not an object, and no JSON at all.
    ...['[]', '"text"', '42', 'null', 'text', '{"sender":', '{"a":1}{}', ''].map(
      (text): BodyText =>
        () =>
          text,
    ),
  ];
  return texts;
}

function omit(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));
}

function pick(all: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => name in all).map((name) => [name, all[name]]));
}

type MemberRule = {
  oneOf?: { required: string[] }[];
  anyOf?: { required: string[] }[];
  dependentRequired?: Record<string, string[]>;
};

/**
 * Makes generated members obey the body's rules across members (allOf of oneOf / anyOf of
 * `required`, dependentRequired): for a oneOf, one drawn branch's members are kept and the
 * others' dropped; a member whose dependencies were not drawn is dropped. (A body that drew no
 * branch of a rule stays as drawn: a refusal the property also wants.)
 */
function followMemberRules(
  schema: Schema,
  drawn: Record<string, unknown>,
  choices: number[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...drawn };
  const rules = (schema.allOf ?? []) as MemberRule[];
  rules.forEach((rule, i) => {
    const pick = choices[i % choices.length] ?? 0;
    if (rule.oneOf) {
      const present = rule.oneOf.filter((b) => b.required.every((k) => k in body));
      const keep = present.length > 0 ? present[pick % present.length]! : null;
      for (const branch of rule.oneOf)
        if (branch !== keep) for (const k of branch.required) delete body[k];
    }
    if (rule.dependentRequired) {
      for (const [k, needs] of Object.entries(rule.dependentRequired))
        if (k in body && !needs.every((n) => n in body)) delete body[k];
    }
  });
  return body;
}

/** A value the schema accepts, leaning on the rig's real things where a name says what it is. */
function valid(rig: Rig, name: string, schema: Schema): fc.Arbitrary<unknown> {
  const hint = hintFor(rig, name);
  const generic = fromSchema(schema);
  return hint
    ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: generic })
    : generic;
}

function hintFor(rig: Rig, name: string): fc.Arbitrary<unknown> | null {
  switch (name) {
    case 'sender':
      return fc.constantFrom(rig.c.sender, rig.other.sender);
    case 'msisdns':
      return fc.array(fc.constantFrom('0812345678', '66812345679', '0900000000', 'bad', ''), {
        minLength: 1,
        maxLength: 4,
      });
    case 'templateId':
      return fc.constantFrom(rig.templateId, rig.otherTemplateId, 999_999);
    case 'contactGroupId':
      return fc.constantFrom(rig.groupId, 999_999);
    case 'variables':
      return fc.constantFrom({ name: 'Ann' }, {}, { other: 1 });
    case 'content':
      return fc.oneof(
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.constantFrom('สวัสดี 😀', 'x'.repeat(1000), '😀'.repeat(1000), '😀'.repeat(1001)),
      );
    case 'scheduledTime':
      return fc
        .integer({ min: -86_400_000, max: 30 * 86_400_000 })
        .map((offset) => new Date(rig.h.clock.now() + offset).toISOString());
    default:
      return null;
  }
}

function fromSchema(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.anyOf) {
    return fc.oneof(
      ...schema.anyOf.map((branch) => fromSchema({ ...schema, anyOf: undefined, ...branch })),
    );
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer': {
      const min = schema.minimum ?? -1_000_000;
      const max = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
      return fc.oneof(
        fc.integer({ min, max: Math.min(max, min + 1000) }),
        fc.constantFrom(min, max),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}), {
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
      return fc.dictionary(
        fc.string({ maxLength: 5 }),
        fc.oneof(fc.string(), fc.integer(), fc.boolean()),
        {
          maxKeys: 3,
        },
      );
    case 'string':
      return stringFrom(schema);
    default:
      return fc.constant('x');
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** Instants from 2000 to 2099, as whole milliseconds. */
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) });

/** `format: date-time` as the document writes it: real instants, seconds, a fraction or not, an offset. */
const dateTimeString = fc
  .record({
    at: instant,
    offsetMinutes: fc.constantFrom(0, 420, -300, 330, 45, -720, 840),
    fraction: fc.constantFrom('', '.5', '.123', '.123456789'),
    zulu: fc.boolean(),
  })
  .map(({ at, offsetMinutes, fraction, zulu }) => {
    if (zulu) return `${new Date(at).toISOString().slice(0, 19)}${fraction}Z`;
    const local = new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 19);
    const abs = Math.abs(offsetMinutes);
    const offset = `${offsetMinutes < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
    return `${local}${fraction}${offset}`;
  });

/** `format: date`: real days. */
const dateString = instant.map((at) => new Date(at).toISOString().slice(0, 10));

function stringFrom(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return dateTimeString;
  if (schema.format === 'date') return dateString;
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 40;
  const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  if (schema.pattern) {
    const regex = new RegExp(schema.pattern, 'u');
    let matching: fc.Arbitrary<string>;
    try {
      matching = fc.stringMatching(regex);
    } catch {
      matching = fc
        .string({ minLength, maxLength: Math.min(maxLength, 40) })
        .filter((s) => regex.test(s));
    }
    return matching.filter(fits);
  }
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 40) }),
    fc.constant('a'.repeat(maxLength)),
  );
}

/**
 * Values breaking one rule of the schema each: a wrong type, a NUL, a text the pattern refuses,
 * empty, one past a length or bound, not of the enum, a date that does not exist, a broken item
 * or entry of an array or object. Lengths and bounds come with the value just inside too, so a
 * limit the document moves either way disagrees with the server. (Some values may suit a
 * schema; the document decides.)
 */
function invalidValues(schema: Schema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const broken: unknown[] = [null, true, 1.5, [], {}, 'x'];
  if (type === 'string' || schema.anyOf !== undefined) {
    broken.push('a\u0000b', '\u0000');
    if (schema.pattern) broken.push(' ', '   ', '\t\n', ' a', 'a  b', 'é', 'ข');
    if ((schema.minLength ?? 0) > 0) broken.push('');
    if (schema.maxLength !== undefined) {
      for (const length of [schema.maxLength, schema.maxLength + 1])
        broken.push('😀'.repeat(length), 'a'.repeat(length));
    }
  }
  if (schema.format || schema.anyOf?.some((branch) => branch.format)) {
    // Dates of the right shape that do not exist, and date-times without seconds or offset.
    broken.push(
      '2026-02-30',
      '2027-02-29T09:30:00+07:00',
      '2026-11-01T09:30:00',
      '2026-11-01T09:30+07:00',
      '2026-11-01T24:00:00Z',
      '2026-11-01 09:30:00Z',
    );
  }
  if (schema.enum) broken.push('nope', String(schema.enum[0]).toUpperCase());
  if (schema.minimum !== undefined) broken.push(schema.minimum, schema.minimum - 1);
  if (schema.maximum !== undefined) broken.push(schema.maximum, schema.maximum + 1);
  if (type === 'integer') broken.push('1', 2 ** 53, -0.5);
  if (type === 'array' && schema.items) {
    for (const item of invalidValues(schema.items)) broken.push(['0812345678', item]);
  }
  const entries = schema.additionalProperties;
  if (type === 'object' && entries && typeof entries === 'object') {
    for (const value of invalidValues(entries as Schema)) broken.push({ name: value });
  }
  return broken;
}

/** The customer's balance and the sum of its ledger. */
async function money(rig: Rig): Promise<{ balance: number; ledgerSum: number; rows: number }> {
  const db = rig.h.db.database.db;
  const account = await db
    .selectFrom('accounts')
    .select('balance')
    .where('id', '=', rig.c.account.id)
    .executeTakeFirstOrThrow();
  const ledger = await fromLedger(db)
    .select(({ fn }) => [fn.countAll().as('rows'), fn.sum('delta').as('sum')])
    .where('account_id', '=', rig.c.account.id)
    .executeTakeFirstOrThrow();
  return {
    balance: Number(account.balance),
    ledgerSum: Number(ledger.sum ?? 0),
    rows: Number(ledger.rows),
  };
}

/** The sum of the ledger rows of one message. */
async function ledgerOf(rig: Rig, uuid: string): Promise<number> {
  const db = rig.h.db.database.db;
  const row = await fromLedger(db)
    .innerJoin('messages', 'messages.id', 'credit_ledger.message_id')
    .select(({ fn }) => fn.sum('credit_ledger.delta').as('sum'))
    .where('messages.uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return Number(row.sum ?? 0);
}

/** A request the API accepts, what it must do to the money, and what else its answer shows. */
interface AcceptedRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: unknown;
  /** A send that is not a dry run: the balance drops by the answer's cost. */
  readonly charges: boolean;
  /** What it exercises, tallied so that the property can say it reached each. */
  readonly features: readonly string[];
  readonly check?: (body: Record<string, unknown>, where: string) => void;
}

const ACCEPTED_FEATURES = [
  'send',
  'send content',
  'send template',
  'send numbers',
  'send group',
  'send numbers and group',
  'send scheduled',
  'send dry run',
  'send idempotency key',
  'preview-cost',
  'list',
  'list status',
  'list sender',
  'list from/to',
  'list search',
  'list page 2+',
  'recipients',
  'recipients after',
  'recipients status',
  'recipients search',
];

let idempotencyCounter = 0;

/** A valid send, preview or list query of the customer's, drawn with the rules that make it so. */
function acceptedRequestOf(rig: Rig): fc.Arbitrary<AcceptedRequest> {
  return fc.oneof(
    { weight: 5, arbitrary: acceptedSend(rig) },
    { weight: 1, arbitrary: acceptedPreview(rig) },
    { weight: 3, arbitrary: acceptedList(rig) },
    { weight: 2, arbitrary: acceptedRecipients(rig) },
  );
}

/** Text the send rules accept: not only whitespace, no NUL, at most 1,000 code points. */
const sendableContent = fc.oneof(
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 80 })
    .filter((s) => /\S/u.test(s) && !s.includes('\u0000') && [...s].length <= 1000),
  fc.constantFrom('Hello', 'สวัสดีครับ', 'x'.repeat(1000), '😀'.repeat(1000), ' a '),
);

/** Numbers the API takes: 0 + 9 digits or 66 + 9 digits, with now and then a malformed one. */
const numbersDrawn = fc
  .tuple(
    fc.array(
      fc
        .tuple(fc.boolean(), fc.integer({ min: 0, max: 999_999_999 }))
        .map(([local, n]) => `${local ? '0' : '66'}${String(n).padStart(9, '0')}`),
      { minLength: 1, maxLength: 5 },
    ),
    fc.constantFrom([], [], ['bad'], ['0812345678'], ['66812345678']),
  )
  .map(([valid, extra]) => [...valid, ...extra]);

/** The text and recipients members of a send or preview body, following its member rules. */
function textAndRecipients(rig: Rig) {
  return fc.record({
    text: fc.oneof(
      sendableContent.map((content) => ({ kind: 'content', members: { content } })),
      fc
        .oneof(fc.stringMatching(/^[A-Za-z0-9ก-๙ ]{1,20}$/u), fc.integer(), fc.boolean())
        .map((name) => ({
          kind: 'template',
          members: { templateId: rig.templateId, variables: { name } },
        })),
    ),
    recipients: fc.oneof(
      numbersDrawn.map((msisdns) => ({ kind: 'numbers', members: { msisdns } })),
      fc.constant({ kind: 'group', members: { contactGroupId: rig.groupId } }),
      numbersDrawn.map((msisdns) => ({
        kind: 'numbers and group',
        members: { msisdns, contactGroupId: rig.groupId },
      })),
    ),
  });
}

function acceptedSend(rig: Rig): fc.Arbitrary<AcceptedRequest> {
  return fc
    .record({
      parts: textAndRecipients(rig),
      // Minutes ahead, in UTC or Bangkok time; none for a send now.
      scheduledIn: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 30 * 24 * 60 })),
      bangkok: fc.boolean(),
      dryRun: fc.constantFrom(undefined, false, true),
      idempotent: fc.boolean(),
    })
    .map(({ parts, scheduledIn, bangkok, dryRun, idempotent }) => {
      const payload: Record<string, unknown> = {
        sender: rig.c.sender,
        ...parts.text.members,
        ...parts.recipients.members,
      };
      const features = ['send', `send ${parts.text.kind}`, `send ${parts.recipients.kind}`];
      if (scheduledIn !== undefined) {
        const at = rig.h.clock.now() + scheduledIn * 60_000;
        payload.scheduledTime = bangkok ? bangkokTime(at) : new Date(at).toISOString();
        features.push('send scheduled');
      }
      if (dryRun !== undefined) payload.dryRun = dryRun;
      if (dryRun) features.push('send dry run');
      const headers: Record<string, string> = {};
      if (idempotent) {
        headers['idempotency-key'] = `contract-${SEED}-${++idempotencyCounter}`;
        features.push('send idempotency key');
      }
      return {
        method: 'POST' as const,
        url: '/api/v2/sms/send',
        headers,
        payload,
        charges: dryRun !== true,
        features,
        check: (body: Record<string, unknown>, where: string) => {
          if (dryRun) {
            assert.equal(body.dryRun, true, where);
            return;
          }
          assert.equal(body.sender, rig.c.sender, where);
          assert.equal(body.status, scheduledIn === undefined ? 'pending' : 'scheduled', where);
          assert.equal(typeof body.scheduledTime === 'string', scheduledIn !== undefined, where);
        },
      };
    });
}

function acceptedPreview(rig: Rig): fc.Arbitrary<AcceptedRequest> {
  return textAndRecipients(rig).map((parts) => ({
    method: 'POST' as const,
    url: '/api/v2/sms/preview-cost',
    headers: {},
    payload: { ...parts.text.members, ...parts.recipients.members },
    charges: false,
    features: ['preview-cost'],
  }));
}

/** `at` as an RFC 3339 date-time in Bangkok's offset (+07:00), with seconds. */
function bangkokTime(at: number): string {
  const local = new Date(at + 7 * 3_600_000).toISOString().slice(0, 19);
  return `${local}+07:00`;
}

function acceptedList(rig: Rig): fc.Arbitrary<AcceptedRequest> {
  const day = (offsetDays: number) =>
    new Date(rig.h.clock.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  return fc
    .record(
      {
        page: fc.integer({ min: 1, max: 4 }),
        limit: fc.integer({ min: 1, max: 100 }),
        status: fc.constantFrom('scheduled', 'pending', 'sent', 'failed', 'cancelled'),
        sender: fc.constantFrom(rig.c.sender, rig.other.sender, 'NOBODY'),
        from: fc.oneof(
          fc.integer({ min: -2, max: 0 }).map(day),
          fc.integer({ min: -3_600, max: 0 }).map((s) => bangkokTime(rig.h.clock.now() + s * 1000)),
        ),
        to: fc.oneof(
          fc.integer({ min: 0, max: 2 }).map(day),
          fc.integer({ min: 0, max: 3_600 }).map((s) => bangkokTime(rig.h.clock.now() + s * 1000)),
        ),
        search: fc.constantFrom('Hello', 'สวัสดี', 'x', 'later', '%', '_', 'ZZZ-none'),
      },
      { requiredKeys: [] },
    )
    .map((query) => {
      const search = new URLSearchParams();
      const features = ['list'];
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined) continue;
        search.set(name, String(value));
        if (name === 'page') {
          if ((value as number) > 1) features.push('list page 2+');
        } else if (name === 'from' || name === 'to') {
          if (!features.includes('list from/to')) features.push('list from/to');
        } else if (name !== 'limit') features.push(`list ${name}`);
      }
      const qs = search.toString();
      return {
        method: 'GET' as const,
        url: qs ? `/api/v2/sms?${qs}` : '/api/v2/sms',
        headers: {},
        charges: false,
        features,
        check: (body: Record<string, unknown>, where: string) => {
          const data = body.data as { status: string; sender: string }[];
          const limit = query.limit ?? 20;
          assert.equal(body.limit, limit, where);
          assert.equal(body.page, query.page ?? 1, where);
          assert.ok(data.length <= limit, where);
          assert.equal(body.totalPages, Math.ceil((body.total as number) / limit), where);
          for (const m of data) {
            if (query.status) assert.equal(m.status, query.status, where);
            if (query.sender) assert.equal(m.sender, query.sender, where);
          }
        },
      };
    });
}

function acceptedRecipients(rig: Rig): fc.Arbitrary<AcceptedRequest> {
  return fc
    .record({
      // Drawn when the request is built, so that sends earlier in the run are listed too.
      pick: fc.nat(),
      query: fc.record(
        {
          limit: fc.integer({ min: 1, max: 50 }),
          after: fc.integer({ min: 0, max: 10 }),
          status: fc.constantFrom('pending', 'invalid', 'blocked', 'success'),
          search: fc.constantFrom('0812', '66812', '1', '999999'),
        },
        { requiredKeys: [] },
      ),
    })
    .map(({ pick, query }) => {
      const uuid = rig.uuids[pick % rig.uuids.length]!;
      const search = new URLSearchParams();
      const features = ['recipients'];
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined) continue;
        search.set(name, String(value));
        if (name !== 'limit') features.push(`recipients ${name}`);
      }
      const qs = search.toString();
      return {
        method: 'GET' as const,
        url: `/api/v2/sms/${uuid}/recipients${qs ? `?${qs}` : ''}`,
        headers: {},
        charges: false,
        features,
        check: (body: Record<string, unknown>, where: string) => {
          const data = body.data as { status: string }[];
          assert.ok(data.length <= (query.limit ?? 50), where);
          if (query.status) for (const r of data) assert.equal(r.status, query.status, where);
        },
      };
    });
}
