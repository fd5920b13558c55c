/**
 * The security suite every /api/v2 route runs (STYLE.md "Tests"): no key, malformed key,
 * unknown key, revoked key, missing scope, another account's resource, unknown resource.
 *
 * The routes under test are read from the app (`declaredRoutes()`), with the scope each one
 * declares, and must be the routes `/openapi.json` documents: a new route is covered without
 * editing this file. A path parameter is filled by a factory per parameter name
 * (`RESOURCES`); a route with a parameter of a new kind fails here until it has one.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { apiKeyPrefix, generateApiKey } from '../../src/domain/accounts/api-key.js';
import type { RequiredScope } from '../../src/domain/accounts/authenticate.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { setAccountStatus } from '../../src/domain/accounts/set-account-status.js';
import type { ApiKeyScope } from '../../src/domain/statuses.js';
import type { Customer, Harness } from './harness.js';

/** Asserts an error answer: the status, and a body of exactly `{ error: string, code, requestId }`. */
export function expectError(response: LightMyRequestResponse, status: number, code?: string): void {
  assert.equal(
    response.statusCode,
    status,
    `expected ${status}, got ${response.statusCode}: ${response.body}`,
  );
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(
    Object.keys(body).sort(),
    ['code', 'error', 'requestId'],
    `error body ${response.body}`,
  );
  assert.equal(body.requestId, response.headers['x-request-id']);
  assert.equal(typeof body.error, 'string');
  assert.ok((body.error as string).length > 0, 'error message is empty');
  assert.equal(typeof body.code, 'string');
  if (code !== undefined) assert.equal(body.code, code, response.body);
}

/** A route of the app under /api/v2, as the access hook recorded it. */
export interface ApiRoute {
  readonly method: string;
  /** Fastify's path, `:param` style. */
  readonly url: string;
  /** The scope its declaration asks of a key. */
  readonly scope: RequiredScope;
}

const routeId = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Every /api/v2 route the app registered, read from the app itself (its access hook records
 * each route with its declaration), so a route added tomorrow is in the suite without an edit.
 */
export function apiRoutes(h: Harness): ApiRoute[] {
  return h.app
    .declaredRoutes()
    .filter((route) => route.url.startsWith('/api/v2') && route.method !== 'HEAD')
    .map((route) => {
      const access = route.access;
      assert.ok(
        access !== undefined && access !== 'public' && 'scope' in access,
        `${routeId(route.method, route.url)} must declare the scope it needs, not ${String(access)}`,
      );
      return { method: route.method, url: route.url, scope: access.scope };
    })
    .sort((a, b) => routeId(a.method, a.url).localeCompare(routeId(b.method, b.url)));
}

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
 * Requests known to succeed for their owner, by route. Optional: a route without one is still
 * run through every check below with a request of its own shape (its path filled in, an empty
 * JSON body), which must pass or fail access exactly as declared; with one, the checks that a
 * key may use the route also ask for a 200.
 */
const SUCCEEDING_BODIES: Readonly<Record<string, (owner: Customer) => object>> = {
  'POST /api/v2/sms/send': (owner) => ({
    sender: owner.sender,
    content: 'Security suite',
    msisdns: ['0812345678'],
  }),
  'POST /api/v2/sms/preview-cost': () => ({ content: 'Preview', msisdns: ['0812345678'] }),
};

const future = '2026-12-24T09:00:00+07:00';

/**
 * Registers the suite's tests in the caller's `describe`; `harness()` is read when they run,
 * after the caller's `before` has built it.
 */
export function securitySuite(harness: () => Harness): void {
  let h: Harness;
  let routes: ApiRoute[];
  let owner: Customer;
  let intruder: Customer;

  /** A scheduled message of `owner`, so every route (cancel too) has something to act on. */
  async function scheduledMessage(of: Customer = owner): Promise<string> {
    const sent = await h.request({
      method: 'POST',
      url: '/api/v2/sms/send',
      key: of.key,
      payload: {
        sender: of.sender,
        content: 'Owned',
        msisdns: ['0899999999'],
        scheduledTime: future,
      },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    return (sent.json() as { uuid: string }).uuid;
  }

  /**
   * How to fill each path parameter with a resource of `of`. A route whose parameter has no
   * entry fails the suite: give its kind of resource a factory here.
   */
  const RESOURCES: Record<string, (of: Customer) => Promise<string>> = {
    uuid: (of) => scheduledMessage(of),
  };

  /** The route's path with each parameter filled by a resource of `of` (or by `fill`). */
  async function pathOf(route: ApiRoute, of: Customer, fill?: string): Promise<string> {
    let path = route.url;
    for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
      const factory = RESOURCES[name!];
      assert.ok(factory, `${routeId(route.method, route.url)}: no resource factory for :${name}`);
      path = path.replace(`:${name}`, fill ?? (await factory(of)));
    }
    return path;
  }

  const hasResource = (route: ApiRoute) => route.url.includes(':');

  async function call(
    route: ApiRoute,
    key: string | undefined,
    options: { as?: Customer; resourceOf?: Customer; fill?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const as = options.as ?? owner;
    const url = await pathOf(route, options.resourceOf ?? as, options.fill);
    const body = SUCCEEDING_BODIES[routeId(route.method, route.url)];
    const payload = route.method === 'GET' ? undefined : (body?.(as) ?? {});
    return h.request({ method: route.method as 'GET' | 'POST', url, key, payload });
  }

  /** Runs `check` once per route of the app, each as its own subtest named after the route. */
  async function eachRoute(
    t: { test: (name: string, fn: () => Promise<void>) => Promise<void> },
    filter: (route: ApiRoute) => boolean,
    check: (route: ApiRoute) => Promise<void>,
  ): Promise<void> {
    const chosen = routes.filter(filter);
    assert.ok(chosen.length > 0, 'no route matched');
    for (const route of chosen) await t.test(routeId(route.method, route.url), () => check(route));
  }

  /** What a refused request must leave alone: the owner's balance and ledger. */
  async function moneyOf(customer: Customer) {
    return {
      balance: (await h.store.findAccount(customer.account.id))!.balance,
      ledger: await h.store.ledgerSum(customer.account.id),
    };
  }

  /** Access passed: the route answered something other than 401 or 403 (its own rules may still say 400). */
  function assertAdmitted(response: LightMyRequestResponse, what: string): void {
    assert.ok(
      response.statusCode !== 401 && response.statusCode !== 403,
      `${what}: expected access, got ${response.statusCode}: ${response.body}`,
    );
    assert.ok(response.statusCode < 500, `${what}: ${response.statusCode} ${response.body}`);
  }

  before(async () => {
    h = harness();
    owner = await h.customer({ credits: 10_000 });
    intruder = await h.customer({ credits: 10_000 });
    routes = apiRoutes(h);
  });

  it('documents exactly the /api/v2 routes the app registers, so none escapes this suite', async () => {
    assert.deepEqual(
      await documentedApiRoutes(h),
      routes.map((route) => routeId(route.method, openApiPath(route.url))).sort(),
    );
  });

  it('covers at least the eight endpoints of the spec', () => {
    const ids = new Set(routes.map((route) => routeId(route.method, openApiPath(route.url))));
    for (const id of [
      'POST /api/v2/sms/send',
      'POST /api/v2/sms/preview-cost',
      'POST /api/v2/sms/{uuid}/cancel',
      'GET /api/v2/sms',
      'GET /api/v2/sms/{uuid}',
      'GET /api/v2/sms/{uuid}/recipients',
      'GET /api/v2/sms/credit/balance',
      'GET /api/v2/senders',
    ])
      assert.ok(ids.has(id), `${id} is not registered`);
  });

  it('answers 401 UNAUTHORIZED without an x-api-key header on every route', async (t) => {
    await eachRoute(
      t,
      () => true,
      async (route) => {
        const uuid = hasResource(route) ? await scheduledMessage() : undefined;
        const before = await moneyOf(owner);
        expectError(await call(route, undefined, { fill: uuid }), 401, 'UNAUTHORIZED');
        assert.deepEqual(await moneyOf(owner), before);
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
    // The secret is everything after the fixed `nok_<12 characters>_` head; it may itself
    // contain `_`, so it is cut by position, not at the last `_`.
    const forged = forgeSecret(owner.key);
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
        assertAdmitted(await call(route, owner.key), "the same account's * key");
      },
    );
  });

  it("answers 403 ACCOUNT_SUSPENDED for a suspended account's key on every route, nothing changes, and reactivated it works", async (t) => {
    const suspended = await h.customer({ credits: 10_000 });
    await eachRoute(
      t,
      () => true,
      async (route) => {
        const uuid = hasResource(route) ? await scheduledMessage(suspended) : undefined;
        const before = await moneyOf(suspended);
        await setAccountStatus(h.store, {
          accountId: suspended.account.id,
          status: 'suspended',
          nowMs: h.clock.now(),
          actor: SYSTEM_ACTOR,
        });
        try {
          expectError(
            await call(route, suspended.key, { as: suspended, fill: uuid }),
            403,
            'ACCOUNT_SUSPENDED',
          );
          assert.deepEqual(await moneyOf(suspended), before);
        } finally {
          await setAccountStatus(h.store, {
            accountId: suspended.account.id,
            status: 'active',
            nowMs: h.clock.now(),
            actor: SYSTEM_ACTOR,
          });
        }
        assertAdmitted(
          await call(route, suspended.key, { as: suspended, fill: uuid }),
          'reactivated',
        );
      },
    );
  });

  it('refuses an sms:read key with 403 SCOPE_INSUFFICIENT on every route that needs sms:send, and nothing changes', async (t) => {
    const { key } = await h.key(owner.account.id, ['sms:read']);
    await eachRoute(
      t,
      (route) => route.scope === 'sms:send',
      async (route) => {
        const uuid = hasResource(route) ? await scheduledMessage() : undefined;
        const before = await moneyOf(owner);
        expectError(await call(route, key, { fill: uuid }), 403, 'SCOPE_INSUFFICIENT');
        assert.deepEqual(await moneyOf(owner), before);
        if (uuid) {
          const still = await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key });
          assert.equal(still.json().status, 'scheduled');
        }
      },
    );
  });

  it('admits sms:send and * keys on every route, and a succeeding request answers 200', async (t) => {
    await eachRoute(
      t,
      () => true,
      async (route) => {
        for (const scopes of [['*'], ['sms:send'], ['sms:read', 'sms:send']] as ApiKeyScope[][]) {
          const { key } = await h.key(owner.account.id, scopes);
          const response = await call(route, key);
          assertAdmitted(response, scopes.join(','));
          if (SUCCEEDING_BODIES[routeId(route.method, route.url)] || route.method === 'GET')
            assert.equal(response.statusCode, 200, `${scopes.join(',')}: ${response.body}`);
        }
      },
    );
  });

  it('admits a key of any scope on every route that needs only sms:read', async (t) => {
    await eachRoute(
      t,
      (route) => route.scope === 'sms:read',
      async (route) => {
        for (const scopes of [['sms:read'], ['sms:send'], ['*']] as ApiKeyScope[][]) {
          const { key } = await h.key(owner.account.id, scopes);
          const response = await call(route, key);
          assertAdmitted(response, scopes.join(','));
          if (SUCCEEDING_BODIES[routeId(route.method, route.url)] || route.method === 'GET')
            assert.equal(response.statusCode, 200, `${scopes.join(',')}: ${response.body}`);
        }
      },
    );
  });

  it("answers 403 FORBIDDEN for another account's resource on every route that names one, and leaves it untouched", async (t) => {
    await eachRoute(t, hasResource, async (route) => {
      const uuid = await scheduledMessage();
      const before = await moneyOf(owner);
      const intruderKeys = [intruder.key, (await h.key(intruder.account.id, ['sms:read'])).key];
      for (const key of intruderKeys) {
        const response = await call(route, key, { as: intruder, fill: uuid });
        // A read-only intruder on a route needing sms:send is refused for its scope first;
        // either way it learns nothing of the resource (never a 404).
        expectError(response, 403);
      }
      const still = await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key: owner.key });
      assert.equal(still.json().status, 'scheduled');
      assert.deepEqual(await moneyOf(owner), before);
    });
  });

  it("answers 403 FORBIDDEN when send names another account's sender", async () => {
    const before = await moneyOf(intruder);
    const response = await h.request({
      method: 'POST',
      url: '/api/v2/sms/send',
      key: intruder.key,
      payload: { sender: owner.sender, content: 'Not mine', msisdns: ['0812345678'] },
    });
    expectError(response, 403, 'FORBIDDEN');
    assert.deepEqual(await moneyOf(intruder), before);
  });

  it("answers 403 FORBIDDEN when preview-cost names another account's template or group", async () => {
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
    for (const payload of [
      { templateId: template.id, msisdns: ['0812345678'] },
      { content: 'Hi', contactGroupId: group.id },
    ]) {
      expectError(
        await h.request({
          method: 'POST',
          url: '/api/v2/sms/preview-cost',
          key: intruder.key,
          payload,
        }),
        403,
        'FORBIDDEN',
      );
    }
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
    const intruderUuids = list.json().data.map((m: { uuid: string }) => m.uuid);
    assert.ok(intruderUuids.includes(own.json().uuid));
    const ownList = await h.request({
      method: 'GET',
      url: '/api/v2/sms?limit=100',
      key: owner.key,
    });
    assert.ok(ownList.json().total > 0);
    assert.ok(!ownList.json().data.some((m: { uuid: string }) => m.uuid === own.json().uuid));
    for (const uuid of intruderUuids) {
      const message = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}`,
        key: owner.key,
      });
      expectError(message, 403, 'FORBIDDEN');
    }
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

  it('answers 404 NOT_FOUND for an unknown resource on every route that names one', async (t) => {
    await eachRoute(t, hasResource, async (route) => {
      for (const uuid of [randomUUID(), 'not-a-uuid', '0', "x' OR '1'='1"])
        expectError(
          await call(route, owner.key, { fill: encodeURIComponent(uuid) }),
          404,
          'NOT_FOUND',
        );
    });
  });
}

/** The same key with another well-formed 32-character secret after its `nok_<prefix>_` head. */
function forgeSecret(key: string): string {
  const head = 'nok_'.length + 12 + '_'.length;
  const secret = key.slice(head);
  const other = secret === 'A'.repeat(32) ? 'B'.repeat(32) : 'A'.repeat(32);
  const forged = key.slice(0, head) + other;
  assert.equal(apiKeyPrefix(forged), apiKeyPrefix(key), 'the forged key keeps the prefix');
  return forged;
}
