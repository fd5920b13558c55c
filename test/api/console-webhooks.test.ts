import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type CreatedWebhook,
  type RotatedWebhook,
  type WebhookDeliveryList,
  type WebhookEndpointView,
  type WebhookList,
} from '../../src/api/console/contract/webhooks.js';
import { WEBHOOK_EVENT_TYPES as DOMAIN_EVENT_TYPES } from '../../src/domain/webhooks/event-types.js';
import {
  MAX_DESCRIPTION_CHARS,
  MAX_ENDPOINTS_PER_ACCOUNT,
  MAX_URL_LENGTH,
} from '../../src/domain/webhooks/manage-endpoints.js';
import { consoleActor, type ConsoleActor } from '../support/console-session.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { expectError } from '../support/security-suite.js';

const HOUR_MS = 3_600_000;

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  assert.equal(response.statusCode, status, response.body);
  return response.json() as T;
}

interface AuditLine {
  action: string;
  actorUserId: number | null;
  targetType: string | null;
  targetId: string | null;
  detail: Record<string, unknown>;
}

describe('the console webhooks contract', () => {
  it("keeps the domain's limits and event types", () => {
    assert.equal(WEBHOOK_URL_MAX, MAX_URL_LENGTH);
    assert.equal(WEBHOOK_DESCRIPTION_MAX, MAX_DESCRIPTION_CHARS);
    assert.equal(WEBHOOK_ENDPOINTS_MAX, MAX_ENDPOINTS_PER_ACCOUNT);
    assert.deepEqual([...WEBHOOK_EVENT_TYPES], [...DOMAIN_EVENT_TYPES]);
  });
});

for (const engine of testEngines()) {
  describe(`console webhooks (${engine.name})`, () => {
    let h: Harness;
    let owner: ConsoleActor;
    let member: ConsoleActor;
    let otherOwner: ConsoleActor;
    before(async () => {
      h = await createHarness(engine);
      owner = await consoleActor(h, 'owner');
      member = await consoleActor(h, 'member', { account: owner.account! });
      otherOwner = await consoleActor(h, 'owner');
    });
    after(() => h.close());

    async function count(table: string): Promise<number> {
      const row = await (h.db.database.db as unknown as Kysely<Record<string, object>>)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    async function auditOf(accountId: number): Promise<AuditLine[]> {
      const { items } = await h.store.listAuditEvents({ accountId, offset: 0, limit: 100 });
      return (items as unknown as AuditLine[]).filter((line) => line.action.startsWith('webhook.'));
    }

    async function create(
      as: ConsoleActor,
      payload: Record<string, unknown> = { url: 'https://hooks.example.com/nok' },
    ): Promise<CreatedWebhook> {
      return ok<CreatedWebhook>(
        await as.request({ method: 'POST', url: '/webhooks', payload }),
        201,
      );
    }

    async function list(as: ConsoleActor): Promise<WebhookList> {
      return ok<WebhookList>(await as.request({ method: 'GET', url: '/webhooks' }));
    }

    it('an owner adds, lists, changes, disables, enables, rotates and deletes an endpoint, each audited', async () => {
      const accountId = owner.account!.id;
      const created = await create(owner, {
        url: '  https://hooks.example.com/nok  ',
        description: 'Billing server',
        eventTypes: ['message.completed', 'recipients.final'],
      });
      assert.match(created.endpoint.id, /^ep_[A-Za-z0-9_-]+$/);
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.equal(created.endpoint.url, 'https://hooks.example.com/nok');
      // Kept in the order of the event types, whatever order they were given in.
      assert.deepEqual(created.endpoint.eventTypes, ['recipients.final', 'message.completed']);
      assert.equal(created.endpoint.enabled, true);
      assert.equal(created.endpoint.disabledReason, null);
      assert.equal('secret' in created.endpoint, false, 'an endpoint never carries its secret');

      const listed = await list(owner);
      assert.deepEqual(listed.data, [created.endpoint]);
      assert.deepEqual(
        listed.eventTypes.map((e) => e.type),
        [...DOMAIN_EVENT_TYPES],
      );
      assert.ok(listed.eventTypes.every((e) => e.description.length > 0));
      assert.equal(JSON.stringify(listed).includes(created.secret), false);

      // The secret, on demand, not cached.
      const shown = await owner.request({
        method: 'GET',
        url: `/webhooks/${created.endpoint.id}/secret`,
      });
      assert.deepEqual(ok(shown), { secret: created.secret });
      assert.equal(shown.headers['cache-control'], 'no-store');

      const changed = ok<WebhookEndpointView>(
        await owner.request({
          method: 'PATCH',
          url: `/webhooks/${created.endpoint.id}`,
          payload: { url: 'https://hooks.example.com/v2', description: '', eventTypes: [] },
        }),
      );
      assert.equal(changed.url, 'https://hooks.example.com/v2');
      assert.equal(changed.description, '');
      assert.deepEqual(changed.eventTypes, [], 'empty: every type');

      const disabled = ok<WebhookEndpointView>(
        await owner.request({
          method: 'PATCH',
          url: `/webhooks/${created.endpoint.id}`,
          payload: { enabled: false },
        }),
      );
      assert.equal(disabled.enabled, false);
      assert.equal(typeof disabled.disabledReason, 'string');
      assert.equal((await list(owner)).data[0]!.enabled, false);

      const enabled = ok<WebhookEndpointView>(
        await owner.request({
          method: 'PATCH',
          url: `/webhooks/${created.endpoint.id}`,
          payload: { enabled: true },
        }),
      );
      assert.equal(enabled.enabled, true);
      assert.equal(enabled.disabledReason, null);

      const rotated = ok<RotatedWebhook>(
        await owner.request({
          method: 'POST',
          url: `/webhooks/${created.endpoint.id}/rotate-secret`,
        }),
      );
      assert.notEqual(rotated.secret, created.secret);
      assert.match(rotated.secret, /^whsec_/);
      // The harness builds the app without settings: the default overlap, 24 hours.
      assert.equal(
        rotated.previousSecretUntil,
        new Date(h.clock.now() + 24 * HOUR_MS).toISOString(),
      );
      assert.deepEqual(
        ok(await owner.request({ method: 'GET', url: `/webhooks/${created.endpoint.id}/secret` })),
        { secret: rotated.secret },
      );
      // The old secret still signs, beside the new one, for the overlap.
      const stored = (await h.store.findWebhookEndpoint(created.endpoint.id))!;
      assert.equal(stored.previousSecret, created.secret);

      const deleted = await owner.request({
        method: 'DELETE',
        url: `/webhooks/${created.endpoint.id}`,
      });
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.equal(deleted.body, '');
      assert.deepEqual((await list(owner)).data, []);
      expectError(
        await owner.request({ method: 'DELETE', url: `/webhooks/${created.endpoint.id}` }),
        404,
        'NOT_FOUND',
      );

      const audit = await auditOf(accountId);
      assert.deepEqual(audit.map((line) => line.action).reverse(), [
        'webhook.create',
        'webhook.update',
        'webhook.disable',
        'webhook.enable',
        'webhook.rotate-secret',
        'webhook.delete',
      ]);
      for (const line of audit) {
        assert.equal(line.actorUserId, owner.user.id);
        assert.equal(line.targetType, 'webhook_endpoint');
        assert.equal(line.targetId, created.endpoint.id);
        assert.equal(JSON.stringify(line.detail).includes('whsec_'), false, 'no secret in the log');
      }
    });

    it('refuses a bad URL, an unknown event type and an empty change with 400, and creates nothing', async () => {
      const endpoints = await count('webhook_endpoints');
      const audit = (await auditOf(owner.account!.id)).length;
      for (const url of [
        'not a url',
        'ftp://hooks.example.com/x',
        'https://user:pass@hooks.example.com/x',
        '',
        `https://hooks.example.com/${'x'.repeat(WEBHOOK_URL_MAX)}`,
      ]) {
        expectError(
          await owner.request({ method: 'POST', url: '/webhooks', payload: { url } }),
          400,
          'INVALID_PARAMETER',
        );
      }
      expectError(
        await owner.request({
          method: 'POST',
          url: '/webhooks',
          payload: { url: 'https://hooks.example.com/x', eventTypes: ['message.exploded'] },
        }),
        400,
        'INVALID_PARAMETER',
      );
      expectError(
        await owner.request({
          method: 'POST',
          url: '/webhooks',
          payload: {
            url: 'https://hooks.example.com/x',
            description: 'ก'.repeat(WEBHOOK_DESCRIPTION_MAX + 1),
          },
        }),
        400,
        'INVALID_PARAMETER',
      );
      assert.equal(await count('webhook_endpoints'), endpoints);

      const { endpoint } = await create(owner);
      for (const payload of [{}, { url: 'mailto:x@example.com' }, { eventTypes: ['nope'] }]) {
        expectError(
          await owner.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, payload }),
          400,
          'INVALID_PARAMETER',
        );
      }
      const [unchanged] = (await list(owner)).data.filter((e) => e.id === endpoint.id);
      assert.deepEqual(unchanged, endpoint);
      assert.equal((await auditOf(owner.account!.id)).length, audit + 1, 'only the create');
      await owner.request({ method: 'DELETE', url: `/webhooks/${endpoint.id}` });
    });

    it('keeps an account to its most endpoints', async () => {
      const own = await consoleActor(h, 'owner');
      for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) {
        await create(own, { url: `https://hooks.example.com/${i}` });
      }
      expectError(
        await own.request({
          method: 'POST',
          url: '/webhooks',
          payload: { url: 'https://hooks.example.com/one-too-many' },
        }),
        400,
        'INVALID_PARAMETER',
      );
      assert.equal((await list(own)).data.length, WEBHOOK_ENDPOINTS_MAX);
    });

    it('keeps a member out, as from the API keys: not even the list', async () => {
      const { endpoint } = await create(owner);
      const before = await count('webhook_endpoints');
      expectError(
        await member.request({
          method: 'POST',
          url: '/webhooks',
          payload: { url: 'https://hooks.example.com/member' },
        }),
        403,
        'FORBIDDEN',
      );
      assert.equal(await count('webhook_endpoints'), before);
      for (const [method, url] of [
        ['GET', '/webhooks'],
        ['GET', `/webhooks/${endpoint.id}/secret`],
        ['GET', `/webhooks/${endpoint.id}/deliveries`],
        ['PATCH', `/webhooks/${endpoint.id}`],
        ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
        ['POST', `/webhooks/${endpoint.id}/test`],
        ['DELETE', `/webhooks/${endpoint.id}`],
      ] as const) {
        expectError(
          await member.request({
            method,
            url,
            ...(method === 'PATCH' && { payload: { enabled: false } }),
          }),
          403,
          'FORBIDDEN',
        );
      }
      assert.deepEqual(
        (await list(owner)).data.find((e) => e.id === endpoint.id),
        endpoint,
      );
      await owner.request({ method: 'DELETE', url: `/webhooks/${endpoint.id}` });
    });

    it("answers 403 for another account's endpoint, 404 for an unknown or malformed one, and changes nothing", async () => {
      const { endpoint, secret } = await create(otherOwner);
      const endpoints = await count('webhook_endpoints');
      const deliveries = await count('webhook_deliveries');
      const audit = (await auditOf(otherOwner.account!.id)).length;
      for (const id of [endpoint.id, 'ep_AAAAAAAAAAAAAAAAAAAAAAAA']) {
        for (const [method, url, payload] of [
          ['GET', `/webhooks/${id}/secret`, undefined],
          ['GET', `/webhooks/${id}/deliveries`, undefined],
          ['PATCH', `/webhooks/${id}`, { enabled: false }],
          ['POST', `/webhooks/${id}/rotate-secret`, undefined],
          ['POST', `/webhooks/${id}/test`, undefined],
          ['POST', `/webhooks/${id}/deliveries/1/resend`, undefined],
          ['DELETE', `/webhooks/${id}`, undefined],
        ] as const) {
          const response = await owner.request({ method, url, ...(payload && { payload }) });
          if (id === endpoint.id) expectError(response, 403, 'FORBIDDEN');
          else expectError(response, 404, 'NOT_FOUND');
          assert.equal(response.body.includes(secret), false);
        }
      }
      // Not an endpoint's id at all: a path no route serves.
      expectError(
        await owner.request({ method: 'GET', url: '/webhooks/not-an-id/deliveries' }),
        404,
        'NOT_FOUND',
      );
      assert.equal(JSON.stringify((await list(owner)).data).includes(endpoint.id), false);
      assert.equal(await count('webhook_endpoints'), endpoints);
      assert.equal(await count('webhook_deliveries'), deliveries);
      assert.equal((await auditOf(otherOwner.account!.id)).length, audit);
      const stored = (await h.store.findWebhookEndpoint(endpoint.id))!;
      assert.equal(stored.secret, secret);
      assert.equal(stored.enabled, true);
    });

    it('queues a test event as a pending delivery, lists it, resends it, and refuses a delivery of another endpoint', async () => {
      const { endpoint } = await create(owner, { url: 'https://hooks.example.com/test' });
      const other = await create(owner, { url: 'https://hooks.example.com/other' });
      const test = ok<{ eventId: string }>(
        await owner.request({ method: 'POST', url: `/webhooks/${endpoint.id}/test` }),
        202,
      );
      assert.match(test.eventId, /^msg_/);

      // No deliverer runs here: the delivery waits, due now.
      const { data } = ok<WebhookDeliveryList>(
        await owner.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries` }),
      );
      assert.equal(data.length, 1);
      const [delivery] = data;
      assert.equal(delivery!.eventId, test.eventId);
      assert.equal(delivery!.eventType, 'webhook.test');
      assert.equal(delivery!.state, 'pending');
      assert.equal(delivery!.attempts, 0);
      assert.equal(delivery!.lastAttemptAt, null);
      assert.equal(delivery!.statusCode, null);
      assert.equal(delivery!.nextAttemptAt, new Date(h.clock.now()).toISOString());
      assert.deepEqual(
        ok<WebhookDeliveryList>(
          await owner.request({ method: 'GET', url: `/webhooks/${other.endpoint.id}/deliveries` }),
        ).data,
        [],
        'a test event goes to its endpoint alone',
      );

      // Pages, newest first: `before` the last one seen.
      const second = ok<{ eventId: string }>(
        await owner.request({ method: 'POST', url: `/webhooks/${endpoint.id}/test` }),
        202,
      );
      const first = ok<WebhookDeliveryList>(
        await owner.request({
          method: 'GET',
          url: `/webhooks/${endpoint.id}/deliveries?limit=1`,
        }),
      ).data;
      assert.deepEqual(
        first.map((d) => d.eventId),
        [second.eventId],
      );
      const next = ok<WebhookDeliveryList>(
        await owner.request({
          method: 'GET',
          url: `/webhooks/${endpoint.id}/deliveries?limit=1&before=${first[0]!.id}`,
        }),
      ).data;
      assert.deepEqual(
        next.map((d) => d.eventId),
        [test.eventId],
      );
      expectError(
        await owner.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries?limit=0` }),
        400,
        'INVALID_PARAMETER',
      );

      h.clock.advance(60_000);
      const resent = await owner.request({
        method: 'POST',
        url: `/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`,
      });
      assert.deepEqual(ok(resent, 202), { deliveryId: delivery!.id });
      const after = ok<WebhookDeliveryList>(
        await owner.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries` }),
      ).data.find((d) => d.id === delivery!.id)!;
      assert.equal(after.state, 'pending');
      assert.equal(after.eventId, test.eventId, 'the same event, posted again');

      // The delivery through another endpoint of the same account, or of another account's.
      const deliveries = await count('webhook_deliveries');
      expectError(
        await owner.request({
          method: 'POST',
          url: `/webhooks/${other.endpoint.id}/deliveries/${delivery!.id}/resend`,
        }),
        404,
        'NOT_FOUND',
      );
      const stranger = await create(otherOwner);
      const theirs = ok<{ eventId: string }>(
        await otherOwner.request({ method: 'POST', url: `/webhooks/${stranger.endpoint.id}/test` }),
        202,
      );
      const [theirDelivery] = ok<WebhookDeliveryList>(
        await otherOwner.request({
          method: 'GET',
          url: `/webhooks/${stranger.endpoint.id}/deliveries`,
        }),
      ).data;
      assert.equal(theirDelivery!.eventId, theirs.eventId);
      expectError(
        await owner.request({
          method: 'POST',
          url: `/webhooks/${endpoint.id}/deliveries/${theirDelivery!.id}/resend`,
        }),
        404,
        'NOT_FOUND',
      );
      assert.equal(await count('webhook_deliveries'), deliveries + 1, "only the other's test");
    });

    it('deletes an endpoint with its deliveries', async () => {
      const { endpoint } = await create(owner, { url: 'https://hooks.example.com/gone' });
      ok(await owner.request({ method: 'POST', url: `/webhooks/${endpoint.id}/test` }), 202);
      const before = await count('webhook_deliveries');
      const response = await owner.request({ method: 'DELETE', url: `/webhooks/${endpoint.id}` });
      assert.equal(response.statusCode, 204, response.body);
      assert.equal(await count('webhook_deliveries'), before - 1);
      expectError(
        await owner.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries` }),
        404,
        'NOT_FOUND',
      );
    });
  });
}
