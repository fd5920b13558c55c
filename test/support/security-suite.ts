/**
 * The security suite every /api/v2 route runs (STYLE.md "Tests"): no key, malformed key,
 * unknown key, revoked key, missing scope, another account's resource, unknown resource.
 *
 * The routes under test are read from `/openapi.json` and must equal `SPEC_ENDPOINTS`, the
 * explicit table of the spec's eight endpoints: a route added without a row here fails the
 * suite instead of escaping it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import type { ApiKeyScope } from '../../src/domain/statuses.js';
import type { Customer, Harness } from './harness.js';

/** Asserts an error answer: the status, and a body of exactly `{ error: string, code }`. */
export function expectError(response: LightMyRequestResponse, status: number, code?: string): void {
  assert.equal(
    response.statusCode,
    status,
    `expected ${status}, got ${response.statusCode}: ${response.body}`,
  );
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error'], `error body ${response.body}`);
  assert.equal(typeof body.error, 'string');
  assert.ok((body.error as string).length > 0, 'error message is empty');
  assert.equal(typeof body.code, 'string');
  if (code !== undefined) assert.equal(body.code, code, response.body);
}

/** What a route needs to be called: the owner's customer and a scheduled message of theirs. */
export interface RouteContext {
  readonly owner: Customer;
  /** A fresh scheduled message of `owner` (cancel needs a new one each time). */
  readonly uuid: string;
}

export interface RouteRequest {
  readonly url: string;
  readonly payload?: InjectOptions['payload'];
}

export interface SpecEndpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The path as the OpenAPI document writes it. */
  readonly path: string;
  /** The scope the route needs beyond a valid key. */
  readonly scope: ApiKeyScope | null;
  /** True for routes on one message (`{uuid}`): 403 for another account's, 404 for an unknown one. */
  readonly onMessage: boolean;
  /** A request that succeeds for `owner`. */
  request(ctx: RouteContext): RouteRequest;
}

const future = '2026-12-24T09:00:00+07:00';

/** The eight endpoints of spec §4, each with a request that succeeds for its owner. */
export const SPEC_ENDPOINTS: readonly SpecEndpoint[] = [
  {
    name: 'send',
    method: 'POST',
    path: '/api/v2/sms/send',
    scope: 'sms:send',
    onMessage: false,
    request: ({ owner }) => ({
      url: '/api/v2/sms/send',
      payload: { sender: owner.sender, content: 'Security suite', msisdns: ['0812345678'] },
    }),
  },
  {
    name: 'preview-cost',
    method: 'POST',
    path: '/api/v2/sms/preview-cost',
    scope: null,
    onMessage: false,
    request: () => ({
      url: '/api/v2/sms/preview-cost',
      payload: { content: 'Preview', msisdns: ['0812345678'] },
    }),
  },
  {
    name: 'cancel',
    method: 'POST',
    path: '/api/v2/sms/{uuid}/cancel',
    scope: null,
    onMessage: true,
    request: ({ uuid }) => ({ url: `/api/v2/sms/${uuid}/cancel` }),
  },
  {
    name: 'list',
    method: 'GET',
    path: '/api/v2/sms',
    scope: null,
    onMessage: false,
    request: () => ({ url: '/api/v2/sms' }),
  },
  {
    name: 'get one',
    method: 'GET',
    path: '/api/v2/sms/{uuid}',
    scope: null,
    onMessage: true,
    request: ({ uuid }) => ({ url: `/api/v2/sms/${uuid}` }),
  },
  {
    name: 'recipients',
    method: 'GET',
    path: '/api/v2/sms/{uuid}/recipients',
    scope: null,
    onMessage: true,
    request: ({ uuid }) => ({ url: `/api/v2/sms/${uuid}/recipients` }),
  },
  {
    name: 'credit balance',
    method: 'GET',
    path: '/api/v2/sms/credit/balance',
    scope: null,
    onMessage: false,
    request: () => ({ url: '/api/v2/sms/credit/balance' }),
  },
  {
    name: 'senders',
    method: 'GET',
    path: '/api/v2/senders',
    scope: null,
    onMessage: false,
    request: () => ({ url: '/api/v2/senders' }),
  },
];

const routeId = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Every operation the OpenAPI document lists under /api/v2, as `METHOD /path`. */
export async function documentedApiRoutes(h: Harness): Promise<string[]> {
  const response = await h.request({ method: 'GET', url: '/openapi.json' });
  assert.equal(response.statusCode, 200, response.body);
  const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/v2'))
    .flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((m) => methods.has(m))
        .map((m) => routeId(m, path)),
    )
    .sort();
}

/**
 * Every route fastify has registered under /api/v2, as `METHOD /path` (OpenAPI's `{param}`),
 * read from `printRoutes`' tree: a route hidden from the document is still found here.
 */
export function registeredApiRoutes(h: Harness): string[] {
  const ancestors: string[] = [];
  const routes: string[] = [];
  for (const line of h.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    ancestors.length = depth;
    ancestors.push(match[2]!);
    const path = ancestors.join('').replace(/:(\w+)/g, '{$1}');
    const methods = (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD');
    if (path.startsWith('/api/v2'))
      for (const method of methods) routes.push(routeId(method, path));
  }
  return routes.sort();
}

/**
 * Registers the suite's tests in the caller's `describe`; `harness()` is read when they run,
 * after the caller's `before` has built it.
 */
export function securitySuite(harness: () => Harness): void {
  let h: Harness;
  let routes: SpecEndpoint[];
  let owner: Customer;
  let intruder: Customer;

  /** A scheduled message of `owner`, so every route (cancel too) has something to act on. */
  async function scheduledMessage(): Promise<string> {
    const sent = await h.request({
      method: 'POST',
      url: '/api/v2/sms/send',
      key: owner.key,
      payload: {
        sender: owner.sender,
        content: 'Owned',
        msisdns: ['0899999999'],
        scheduledTime: future,
      },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    return (sent.json() as { uuid: string }).uuid;
  }

  async function call(route: SpecEndpoint, key: string | undefined, ctx?: Partial<RouteContext>) {
    const uuid = ctx?.uuid ?? (route.onMessage ? await scheduledMessage() : randomUUID());
    const request = route.request({ owner: ctx?.owner ?? owner, uuid });
    return h.request({ method: route.method, key, ...request });
  }

  /** Runs `check` once per documented route, each as its own subtest named after the route. */
  async function eachRoute(
    t: { test: (name: string, fn: () => Promise<void>) => Promise<void> },
    filter: (route: SpecEndpoint) => boolean,
    check: (route: SpecEndpoint) => Promise<void>,
  ): Promise<void> {
    const chosen = routes.filter(filter);
    assert.ok(chosen.length > 0, 'no route matched');
    for (const route of chosen) await t.test(`${route.method} ${route.path}`, () => check(route));
  }

  before(async () => {
    h = harness();
    owner = await h.customer({ credits: 10_000 });
    intruder = await h.customer({ credits: 10_000 });
    const documented = await documentedApiRoutes(h);
    const byId = new Map(SPEC_ENDPOINTS.map((e) => [routeId(e.method, e.path), e]));
    // Routes come from the document; one missing from the table is caught by the test below.
    routes = documented.map((id) => byId.get(id)).filter((e): e is SpecEndpoint => e !== undefined);
  });

  it('documents exactly the eight spec endpoints under /api/v2, so none escapes this suite', async () => {
    const table = SPEC_ENDPOINTS.map((e) => routeId(e.method, e.path)).sort();
    assert.deepEqual(await documentedApiRoutes(h), table);
    assert.equal(routes.length, 8);
  });

  it('registers no /api/v2 route beyond the documented eight', () => {
    assert.deepEqual(
      registeredApiRoutes(h),
      SPEC_ENDPOINTS.map((e) => routeId(e.method, e.path)).sort(),
    );
  });

  it('answers 401 UNAUTHORIZED without an x-api-key header on every route', async (t) => {
    await eachRoute(
      t,
      () => true,
      async (route) => {
        expectError(await call(route, undefined), 401, 'UNAUTHORIZED');
      },
    );
  });

  it('answers 401 for malformed keys on every route', async (t) => {
    const malformed = [
      'not-a-key',
      'nok_',
      `${owner.key}x`,
      owner.key.slice(0, -1),
      owner.key.toUpperCase(),
    ];
    await eachRoute(
      t,
      () => true,
      async (route) => {
        for (const key of malformed) expectError(await call(route, key), 401, 'UNAUTHORIZED');
      },
    );
  });

  it('answers 401 for a well-formed key that was never issued on every route', async (t) => {
    const unknown = generateApiKey().key;
    // Same prefix as a real key, different secret: the prefix alone must not authenticate.
    const forged = owner.key.replace(/_[^_]+$/, `_${'A'.repeat(32)}`);
    await eachRoute(
      t,
      () => true,
      async (route) => {
        expectError(await call(route, unknown), 401, 'UNAUTHORIZED');
        expectError(await call(route, forged), 401, 'UNAUTHORIZED');
      },
    );
  });

  it("answers 401 for a revoked key on every route, while the same account's other key still works", async (t) => {
    const { key, id } = await h.key(owner.account.id, ['*']);
    assert.equal((await h.request({ method: 'GET', url: '/api/v2/senders', key })).statusCode, 200);
    assert.equal(await h.store.revokeApiKey(id, h.clock.now()), true);
    await eachRoute(
      t,
      () => true,
      async (route) => {
        expectError(await call(route, key), 401, 'UNAUTHORIZED');
      },
    );
    assert.equal(
      (await h.request({ method: 'GET', url: '/api/v2/senders', key: owner.key })).statusCode,
      200,
    );
  });

  it('refuses send with 403 SCOPE_INSUFFICIENT for an sms:read key and charges nothing', async (t) => {
    const { key } = await h.key(owner.account.id, ['sms:read']);
    await eachRoute(
      t,
      (r) => r.scope === 'sms:send',
      async (route) => {
        const before = await h.store.findAccount(owner.account.id);
        expectError(await call(route, key), 403, 'SCOPE_INSUFFICIENT');
        assert.equal((await h.store.findAccount(owner.account.id))!.balance, before!.balance);
      },
    );
  });

  it('lets sms:send and * keys send', async (t) => {
    await eachRoute(
      t,
      (r) => r.scope === 'sms:send',
      async (route) => {
        for (const scopes of [['*'], ['sms:send'], ['sms:read', 'sms:send']] as ApiKeyScope[][]) {
          const { key } = await h.key(owner.account.id, scopes);
          const response = await call(route, key);
          assert.equal(response.statusCode, 200, `${scopes.join(',')}: ${response.body}`);
        }
      },
    );
  });

  it('accepts a key of any scope on every route that needs no scope', async (t) => {
    await eachRoute(
      t,
      (r) => r.scope === null,
      async (route) => {
        for (const scopes of [['sms:read'], ['sms:send'], ['*']] as ApiKeyScope[][]) {
          const { key } = await h.key(owner.account.id, scopes);
          const response = await call(route, key);
          assert.equal(response.statusCode, 200, `${scopes.join(',')}: ${response.body}`);
        }
      },
    );
  });

  it("answers 403 FORBIDDEN for another account's message and leaves it untouched", async (t) => {
    await eachRoute(
      t,
      (r) => r.onMessage,
      async (route) => {
        const uuid = await scheduledMessage();
        const ownerBalance = (await h.store.findAccount(owner.account.id))!.balance;
        expectError(await call(route, intruder.key, { uuid }), 403, 'FORBIDDEN');
        // Even a read-only key of the intruder gets 403, not a hint of 404.
        const { key: readKey } = await h.key(intruder.account.id, ['sms:read']);
        expectError(await call(route, readKey, { uuid }), 403, 'FORBIDDEN');
        const still = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${uuid}`,
          key: owner.key,
        });
        assert.equal(still.json().status, 'scheduled');
        assert.equal((await h.store.findAccount(owner.account.id))!.balance, ownerBalance);
      },
    );
  });

  it("answers 403 FORBIDDEN when send names another account's sender", async (t) => {
    await eachRoute(
      t,
      (r) => r.name === 'send',
      async (route) => {
        const balance = (await h.store.findAccount(intruder.account.id))!.balance;
        expectError(await call(route, intruder.key, { owner }), 403, 'FORBIDDEN');
        assert.equal((await h.store.findAccount(intruder.account.id))!.balance, balance);
      },
    );
  });

  it("answers 403 FORBIDDEN when preview-cost names another account's template or group", async (t) => {
    const template = await h.store.createTemplate({
      accountId: owner.account.id,
      name: 't',
      body: 'Hi',
      nowMs: h.clock.now(),
    });
    const group = await h.store.createContactGroup({
      accountId: owner.account.id,
      name: 'g',
      nowMs: h.clock.now(),
    });
    await h.store.addContacts(group.id, ['66812345678']);
    await eachRoute(
      t,
      (r) => r.name === 'preview-cost',
      async (route) => {
        for (const payload of [
          { templateId: template.id, msisdns: ['0812345678'] },
          { content: 'Hi', contactGroupId: group.id },
        ]) {
          expectError(
            await h.request({ method: route.method, url: route.path, key: intruder.key, payload }),
            403,
            'FORBIDDEN',
          );
        }
      },
    );
  });

  it("shows only the caller's own data on list, balance and senders", async () => {
    await scheduledMessage();
    const own = await h.request({
      method: 'POST',
      url: '/api/v2/sms/send',
      key: intruder.key,
      payload: { sender: intruder.sender, content: 'Mine', msisdns: ['0811111111'] },
    });
    assert.equal(own.statusCode, 200, own.body);
    const list = await h.request({
      method: 'GET',
      url: '/api/v2/sms?limit=100',
      key: intruder.key,
    });
    assert.equal(list.json().total, 1);
    assert.deepEqual(
      list.json().data.map((m: { uuid: string }) => m.uuid),
      [own.json().uuid],
    );
    const ownList = await h.request({
      method: 'GET',
      url: '/api/v2/sms?limit=100',
      key: owner.key,
    });
    assert.ok(ownList.json().total > 0);
    assert.ok(!ownList.json().data.some((m: { uuid: string }) => m.uuid === own.json().uuid));
    const balance = await h.request({
      method: 'GET',
      url: '/api/v2/sms/credit/balance',
      key: intruder.key,
    });
    assert.equal(balance.json().balance, (await h.store.findAccount(intruder.account.id))!.balance);
    const senders = await h.request({ method: 'GET', url: '/api/v2/senders', key: intruder.key });
    assert.deepEqual(
      senders.json().data.map((s: { name: string }) => s.name),
      [intruder.sender],
    );
  });

  it('answers 404 NOT_FOUND for an unknown message uuid', async (t) => {
    await eachRoute(
      t,
      (r) => r.onMessage,
      async (route) => {
        for (const uuid of [randomUUID(), 'not-a-uuid', '0', "x' OR '1'='1"]) {
          expectError(
            await call(route, owner.key, { uuid: encodeURIComponent(uuid) }),
            404,
            'NOT_FOUND',
          );
        }
      },
    );
  });
}
