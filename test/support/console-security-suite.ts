/**
 * The security suite every console API route runs (issue 8): no session, expired session,
 * CSRF token missing or from another session, cross-origin request, member vs owner vs admin
 * as each route declares, and another account's resource → 403.
 *
 * The routes are read from the app (`declaredRoutes()`, every route under /console/api with its
 * declared role) and must be the routes /console/api/openapi.json documents: a new route is
 * covered without editing this file. A path parameter is filled by a factory per parameter name
 * (`CONSOLE_RESOURCES`): a route with a parameter of a new kind fails here until it has one.
 * A resource named in a request's body or query is found in the same document, where the
 * contract marks the field (`accountResource`, ACCOUNT_RESOURCE_KEY) and the kind of resource
 * it names; it is filled by a factory per kind (`CONSOLE_FIELD_RESOURCES`). An id-like field of
 * a customer route that is not marked fails here, as does a kind without a factory. (Multipart
 * bodies are not in the document: their fields are read by their routes, none names an id.)
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { ConsoleRole } from '../../src/api/access.js';
import type { Account } from '../../src/domain/accounts/account-store.js';
import { totpCode } from '../../src/domain/users/totp.js';
import type { User, UserRole } from '../../src/domain/users/user.js';
import {
  anonymousSession,
  CONSOLE_ORIGIN,
  createConsoleUser,
  sessionHeaders,
  sessionOf,
  TEST_PASSWORD,
  type ConsoleSession,
} from './console-session.js';
import { consoleRequestFields, ID_LIKE } from './console-request-fields.js';
import type { Harness } from './harness.js';
import { readCatalogue } from './schema-catalogue.js';
import { expectError } from './security-suite.js';

/** A route of the console API, as the access hook recorded it. */
export interface ConsoleRoute {
  readonly method: string;
  /** Fastify's path, `:param` style. */
  readonly url: string;
  readonly role: ConsoleRole;
  /** Open to a session restricted until TOTP enrolment. */
  readonly whileEnrolling: boolean;
}

/** A person the suite acts as, with their account (null for an admin). */
export interface SuiteActor {
  readonly user: User;
  readonly account: Account | null;
}

/**
 * How to fill each path parameter: a resource belonging to `of`'s account (for an admin,
 * `of` is the owner whose account the resource belongs to), answered as the path segment.
 * Add an entry with each new kind of parameter.
 */
export const CONSOLE_RESOURCES: Record<string, (h: Harness, of: SuiteActor) => Promise<string>> = {
  keyId: async (h, of) => String((await h.key(of.account!.id)).id),
  accountId: async (_h, of) => String(of.account!.id),
  uuid: async (h, of) => scheduledMessage(h, of.account!.id),
};

let suiteSenders = 0;

/** A message of the account, scheduled a day ahead (so cancel can succeed), sent via /api/v2. */
export async function scheduledMessage(h: Harness, accountId: number): Promise<string> {
  const sender = `Su${++suiteSenders}x${accountId}`.slice(0, 11);
  await h.sender(accountId, sender);
  await h.store.transaction((tx) =>
    tx.changeBalance({
      accountId,
      delta: 10,
      reason: 'top-up',
      messageId: null,
      nowMs: h.clock.now(),
    }),
  );
  const { key } = await h.key(accountId);
  const scheduledTime = new Date(h.clock.now() + 86_400_000).toISOString();
  const sent = await h.send(
    { key },
    { sender, content: 'suite', msisdns: ['66812345678'], scheduledTime },
  );
  return sent.uuid;
}

/**
 * How to make a resource of each kind a request field can name (ACCOUNT_RESOURCE_KEY in the
 * contract), belonging to `of`'s account, as the field's value. Add an entry with each new kind.
 */
export const CONSOLE_FIELD_RESOURCES: Record<
  string,
  (h: Harness, of: SuiteActor) => Promise<unknown>
> = {};

/**
 * Bodies that make a state-changing route succeed, by `METHOD /url`. Optional: without one a
 * route gets an empty JSON object, which must pass or fail access exactly as declared. `fill`
 * holds the resource fields the suite is about to set over the body (its own values win): a
 * body gives up what goes instead of them (`content` for a `templateId`, say).
 */
export const CONSOLE_BODIES: Record<
  string,
  (h: Harness, as: SuiteActor, fill?: Readonly<Record<string, unknown>>) => Promise<object>
> = {
  'POST /console/api/keys': async () => ({ name: 'suite', scopes: ['sms:read'] }),
  'POST /console/api/admin/accounts': async () => ({ name: 'Suite account' }),
  'PATCH /console/api/admin/accounts/:accountId': async () => ({ pricePerPart: 1 }),
  'POST /console/api/admin/accounts/:accountId/credits': async () => ({
    kind: 'grant',
    amount: 1,
    note: 'security suite',
  }),
  'PUT /console/api/admin/accounts/:accountId/status': async () => ({ status: 'active' }),
  'PATCH /console/api/profile': async () => ({ timeZone: 'Asia/Bangkok' }),
  'POST /console/api/profile/password': async () => ({
    currentPassword: TEST_PASSWORD,
    newPassword: TEST_PASSWORD,
  }),
  'POST /console/api/profile/totp/confirm': async (h, as) => ({ code: await codeOf(h, as) }),
  'POST /console/api/profile/totp/recovery-codes': async (h, as) => ({ code: await codeOf(h, as) }),
  'POST /console/api/profile/totp/disable': async (h, as) => ({ code: await codeOf(h, as) }),
  'PUT /console/api/account/two-factor': async () => ({ required: false }),
  'PUT /console/api/dashboard/low-balance-threshold': async () => ({ lowBalanceThreshold: 0 }),
};

/** A current code of the person's TOTP secret (in force or pending), or one of no one's. */
async function codeOf(h: Harness, as: SuiteActor): Promise<string> {
  const user = await h.store.findUser(as.user.id);
  if (!user?.totpSecret) return '000000';
  await h.store.updateUser(user.id, { totpLastStep: null }, h.clock.now());
  return totpCode(user.totpSecret, h.clock.now());
}

const routeId = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Which person roles a console role admits (the rule the suite checks the app against). */
const ADMITS: Record<ConsoleRole, readonly UserRole[]> = {
  guest: ['member', 'owner', 'admin'],
  user: ['member', 'owner', 'admin'],
  member: ['member', 'owner'],
  owner: ['owner'],
  admin: ['admin'],
};

/** Every console API route the app registered, but its OpenAPI document. */
export function consoleRoutes(h: Harness): ConsoleRoute[] {
  return h.app
    .declaredRoutes()
    .filter(
      (route) =>
        route.url.startsWith('/console/api/') &&
        route.method !== 'HEAD' &&
        route.url !== '/console/api/openapi.json',
    )
    .map((route) => {
      const access = route.access;
      assert.ok(
        access !== undefined && access !== 'public' && 'role' in access,
        `${routeId(route)} must declare a console role, not ${JSON.stringify(access)}`,
      );
      return {
        method: route.method,
        url: route.url,
        role: access.role,
        whileEnrolling: 'whileEnrolling' in access && access.whileEnrolling === true,
      };
    })
    .sort((a, b) => routeId(a).localeCompare(routeId(b)));
}

async function documentedConsoleRoutes(h: Harness): Promise<string[]> {
  const response = await h.app.inject({ method: 'GET', url: '/console/api/openapi.json' });
  assert.equal(response.statusCode, 200, response.body);
  const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch']);
  return Object.entries(paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((m) => methods.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

/**
 * Registers the suite's tests in the caller's `describe`; `harness()` is read when they run,
 * after the caller's `before` has built it. The harness's clock is moved forward by the
 * expiry test.
 */
export function consoleSecuritySuite(
  harness: () => Harness,
  options: { idleMs: number } = { idleMs: 30 * 60_000 },
): void {
  let h: Harness;
  let routes: ConsoleRoute[];
  /** Every table of the store, to count rows in. */
  let tables: string[];
  /** member and owner of account A, owner of account B, a platform admin. */
  let people: { member: SuiteActor; owner: SuiteActor; otherOwner: SuiteActor; admin: SuiteActor };
  /** People who must use TOTP and have not enrolled: an admin, and an account that requires it. */
  let unenrolled: Record<UserRole, SuiteActor>;

  const byRole = (role: UserRole): SuiteActor =>
    role === 'member' ? people.member : role === 'owner' ? people.owner : people.admin;

  async function pathOf(route: ConsoleRoute, of: SuiteActor): Promise<string> {
    let path = route.url;
    for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
      const factory = CONSOLE_RESOURCES[name!];
      assert.ok(factory, `${routeId(route)}: no resource factory for :${name} (CONSOLE_RESOURCES)`);
      path = path.replace(`:${name}`, encodeURIComponent(await factory(h, of)));
    }
    return path;
  }

  /** Whose resource a caller acting as `as` names by default: their own account's. */
  const ownerOf = (as: SuiteActor) => (as.account === null ? people.owner : as);

  /** Resource fields to set over a request: in its JSON body, or in its query. */
  interface Fill {
    readonly body?: Readonly<Record<string, unknown>>;
    readonly query?: Readonly<Record<string, unknown>>;
  }

  /** The request as `call` sends it, every resource it names made beforehand. */
  async function requestOf(
    route: ConsoleRoute,
    headers: Record<string, string>,
    options: { as?: SuiteActor; resourceOf?: SuiteActor; fill?: Fill } = {},
  ): Promise<InjectOptions> {
    const as = options.as ?? people.owner;
    const path = await pathOf(route, options.resourceOf ?? ownerOf(as));
    const query = new URLSearchParams(
      Object.entries(options.fill?.query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const body = CONSOLE_BODIES[routeId(route)];
    const fill = options.fill?.body ?? {};
    const payload = SAFE.has(route.method)
      ? undefined
      : { ...(body ? await body(h, as, fill) : {}), ...fill };
    return {
      method: route.method as 'GET',
      url: query ? `${path}?${query}` : path,
      headers: SAFE.has(route.method)
        ? headers
        : { 'content-type': 'application/json', ...headers },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    };
  }

  async function call(
    route: ConsoleRoute,
    headers: Record<string, string>,
    options: { as?: SuiteActor; resourceOf?: SuiteActor; fill?: Fill } = {},
  ): Promise<LightMyRequestResponse> {
    return h.app.inject(await requestOf(route, headers, options));
  }

  /** What a refused request must leave as it was: the audit log, and how many rows each table holds. */
  async function snapshot(): Promise<Record<string, number>> {
    const counts: Record<string, number> = { 'audit lines': await auditCount() };
    for (const table of tables) {
      const row = await (h.db.database.db as unknown as Kysely<Record<string, object>>)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  }

  async function auditCount(): Promise<number> {
    return (await h.store.listAuditEvents({ offset: 0, limit: 1 })).total;
  }

  async function eachRoute(
    t: { test: (name: string, fn: () => Promise<void>) => Promise<void> },
    filter: (route: ConsoleRoute) => boolean,
    check: (route: ConsoleRoute) => Promise<void>,
  ): Promise<void> {
    const chosen = routes.filter(filter);
    if (chosen.length === 0) return;
    for (const route of chosen) await t.test(routeId(route), () => check(route));
  }

  /** A fresh session for the route's caller: anonymous for guest routes. */
  async function sessionFor(actor: SuiteActor | null): Promise<ConsoleSession> {
    return actor ? sessionOf(h, actor.user) : anonymousSession(h);
  }

  function admitted(response: LightMyRequestResponse, what: string): void {
    assert.ok(
      response.statusCode !== 401 && response.statusCode !== 403,
      `${what}: expected access, got ${response.statusCode}: ${response.body}`,
    );
    assert.ok(response.statusCode < 500, `${what}: ${response.statusCode} ${response.body}`);
  }

  /** Someone the route admits, to hold the session its CSRF checks run in. */
  const admittedActor = (route: ConsoleRoute): SuiteActor | null =>
    route.role === 'guest' ? null : byRole(ADMITS[route.role][0]!);

  before(async () => {
    h = harness();
    const a = await createConsoleUser(h, 'owner');
    const member = await createConsoleUser(h, 'member', { account: a.account! });
    const b = await createConsoleUser(h, 'owner');
    const admin = await createConsoleUser(h, 'admin');
    people = { owner: a, member, otherOwner: b, admin };
    const strictOwner = await createConsoleUser(h, 'owner');
    await h.store.setAccountRequireTotp(strictOwner.account!.id, true);
    unenrolled = {
      owner: strictOwner,
      member: await createConsoleUser(h, 'member', { account: strictOwner.account! }),
      admin: await createConsoleUser(h, 'admin', { totp: false }),
    };
    routes = consoleRoutes(h);
    tables = Object.keys(await readCatalogue(h.db.database));
  });

  it('documents exactly the console routes the app registers, so none escapes this suite', async () => {
    assert.deepEqual(
      await documentedConsoleRoutes(h),
      routes.map((route) => `${route.method} ${openApiPath(route.url)}`).sort(),
    );
  });

  it('answers 401 without a session on every route that needs one, and changes nothing', async (t) => {
    await eachRoute(
      t,
      (route) => route.role !== 'guest',
      async (route) => {
        const before = await auditCount();
        // With and without a CSRF-looking token and our Origin: no session is no session.
        expectError(await call(route, {}), 401, 'UNAUTHORIZED');
        expectError(
          await call(route, { origin: CONSOLE_ORIGIN, 'x-csrf-token': 'x'.repeat(43) }),
          401,
          'UNAUTHORIZED',
        );
        expectError(
          await call(route, { cookie: 'nok_session=forged', origin: CONSOLE_ORIGIN }),
          401,
          'UNAUTHORIZED',
        );
        assert.equal(await auditCount(), before);
      },
    );
  });

  it('answers 401 for an expired session on every route that needs one', async (t) => {
    const sessions = new Map<UserRole, ConsoleSession>();
    for (const role of ['member', 'owner', 'admin'] as const)
      sessions.set(role, await sessionOf(h, byRole(role).user));
    h.clock.advance(options.idleMs + 1);
    await eachRoute(
      t,
      (route) => route.role !== 'guest',
      async (route) => {
        const role = ADMITS[route.role][0]!;
        const response = await call(route, sessionHeaders(sessions.get(role)!), {
          as: byRole(role),
        });
        expectError(response, 401, 'UNAUTHORIZED');
      },
    );
  });

  it('refuses every state change without the CSRF token, with another session’s, or from another origin', async (t) => {
    await eachRoute(
      t,
      (route) => !SAFE.has(route.method),
      async (route) => {
        const actor = admittedActor(route);
        const own = await sessionFor(actor);
        const other = await sessionFor(actor);
        const as = actor ?? people.owner;
        const before = await auditCount();
        const refused: Record<string, Record<string, string>> = {
          'no token': { cookie: own.cookie, origin: CONSOLE_ORIGIN },
          "another session's token": { ...sessionHeaders(own), 'x-csrf-token': other.csrfToken },
          'another origin': { ...sessionHeaders(own), origin: 'https://evil.example' },
          'a cross-site fetch': {
            cookie: own.cookie,
            'x-csrf-token': own.csrfToken,
            'sec-fetch-site': 'cross-site',
          },
          'no Origin nor Sec-Fetch-Site': { cookie: own.cookie, 'x-csrf-token': own.csrfToken },
        };
        for (const [what, headers] of Object.entries(refused)) {
          const response = await call(route, headers, { as });
          assert.equal(response.statusCode, 403, `${what}: ${response.body}`);
          expectError(response, 403, 'CSRF_FAILED');
        }
        assert.equal(await auditCount(), before);
        // The same request with its own token from our origin passes the check.
        admitted(await call(route, sessionHeaders(own), { as }), 'own token');
      },
    );
  });

  it('admits exactly the roles each route declares: member vs owner vs admin', async (t) => {
    await eachRoute(
      t,
      () => true,
      async (route) => {
        for (const role of ['member', 'owner', 'admin'] as const) {
          const actor = byRole(role);
          const session = await sessionOf(h, actor.user);
          const before = await auditCount();
          const response = await call(route, sessionHeaders(session), { as: actor });
          if (ADMITS[route.role].includes(role)) admitted(response, role);
          else {
            expectError(response, 403, 'FORBIDDEN');
            assert.equal(await auditCount(), before, `${role} refused, yet audited`);
          }
        }
      },
    );
  });

  it("answers 403 for another account's resource on every customer route that names one", async (t) => {
    await eachRoute(
      t,
      (route) => route.url.includes(':') && route.role !== 'admin' && route.role !== 'guest',
      async (route) => {
        for (const role of ADMITS[route.role].filter((r) => r !== 'admin')) {
          const actor = byRole(role);
          const session = await sessionOf(h, actor.user);
          const before = await auditCount();
          const response = await call(route, sessionHeaders(session), {
            as: actor,
            resourceOf: people.otherOwner,
          });
          expectError(response, 403);
          assert.equal(await auditCount(), before);
        }
      },
    );
  });

  /** Routes a customer calls: customers' resources are theirs alone (admins' routes see all). */
  const customerRoute = (route: ConsoleRoute) => route.role !== 'admin' && route.role !== 'guest';

  it('knows every request field of a customer route that names a resource: marked in the contract, with a factory for its kind', async () => {
    const fields = await consoleRequestFields(h);
    const marked: string[] = [];
    for (const route of routes.filter(customerRoute)) {
      for (const field of fields.get(routeId(route)) ?? []) {
        const where = `${routeId(route)}: ${field.in} field ${field.name}`;
        if (field.resource === null) {
          const name = field.name.split(/\.|\[\]\./).at(-1)!;
          assert.doesNotMatch(
            name,
            ID_LIKE,
            `${where} reads as naming a record: mark it accountResource(kind, …) in the contract`,
          );
          continue;
        }
        assert.ok(!field.nested, `${where}: the suite fills top-level fields only; extend it`);
        assert.ok(
          CONSOLE_FIELD_RESOURCES[field.resource],
          `${where}: no factory for '${field.resource}' (CONSOLE_FIELD_RESOURCES)`,
        );
        marked.push(where);
      }
    }
    assert.ok(marked.length > 0, 'no marked field found: is the contract read?');
  });

  it("answers 403 for another account's resource named in a request field, and changes nothing", async (t) => {
    const fields = await consoleRequestFields(h);
    const markedOf = (route: ConsoleRoute) =>
      (fields.get(routeId(route)) ?? []).filter((field) => field.resource !== null);
    await eachRoute(
      t,
      (route) => customerRoute(route) && markedOf(route).length > 0,
      async (route) => {
        for (const field of markedOf(route)) {
          const make = CONSOLE_FIELD_RESOURCES[field.resource!]!;
          const fillOf = (value: unknown): Fill => ({ [field.in]: { [field.name]: value } });
          for (const role of ADMITS[route.role].filter((r) => r !== 'admin')) {
            const actor = byRole(role);
            const headers = sessionHeaders(await sessionOf(h, actor.user));
            const what = `${role}, ${field.in} field ${field.name}`;
            // Their own account's resource in the same request succeeds: the field is the
            // only difference.
            const own = await call(route, headers, {
              as: actor,
              fill: fillOf(await make(h, actor)),
            });
            assert.ok(own.statusCode < 300, `${what}, their own: ${own.statusCode} ${own.body}`);
            const request = await requestOf(route, headers, {
              as: actor,
              fill: fillOf(await make(h, people.otherOwner)),
            });
            const before = await snapshot();
            const response = await h.app.inject(request);
            assert.equal(response.statusCode, 403, `${what}, another account's: ${response.body}`);
            expectError(response, 403);
            assert.deepEqual(await snapshot(), before, `${what}: refused, yet something changed`);
          }
        }
      },
    );
  });

  it('answers 403 TOTP_ENROLMENT_REQUIRED to someone who must enrol, on every route but the session and profile ones', async (t) => {
    const open = routes.filter((route) => route.whileEnrolling).map(routeId);
    for (const id of open) {
      assert.match(
        id,
        /^\w+ \/console\/api\/(session|profile)(\/|$)/,
        `${id} is open before enrolment`,
      );
    }
    const check = async (route: ConsoleRoute) => {
      for (const role of ADMITS[route.role]) {
        const actor = unenrolled[role];
        const session = await sessionOf(h, actor.user);
        const before = await auditCount();
        const response = await call(route, sessionHeaders(session), { as: actor });
        if (route.whileEnrolling) admitted(response, `${role} before enrolment`);
        else {
          expectError(response, 403, 'TOTP_ENROLMENT_REQUIRED');
          assert.equal(await auditCount(), before, `${role} refused, yet audited`);
        }
      }
    };
    // The open routes last: their bodies may complete an enrolment.
    await eachRoute(t, (route) => route.role !== 'guest' && !route.whileEnrolling, check);
    await eachRoute(t, (route) => route.whileEnrolling, check);
  });
}
