import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAdmin } from '../../src/cli/admin.js';
import { loadConfig } from '../../src/config.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import type { Store } from '../../src/domain/store.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { assertRefused, databaseUrlFor, jsonOf, runAdminInProcess } from './nok-process.js';

// `nok admin webhook …`, called through the same runAdmin the binary calls (as admin.test.ts's
// per-command suites do). Accounts are made through the store.

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

describe('nok admin webhook command line', () => {
  let dir: string;
  let url: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'nok-admin-webhook-usage-'));
    url = join(dir, 'never-created.db');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a malformed command line with exit 2 and the usage, without opening the database', async () => {
    const cases = [
      ['webhook', 'create', '--url', 'https://example.com/hook'],
      ['webhook', 'create', '--account', '1'],
      ['webhook', 'create', '--account', 'one', '--url', 'https://example.com/hook'],
      ['webhook', 'create', '--account', '1', '--url', 'https://example.com/hook', '--event', ''],
      ['webhook', 'create', '--account', '1', '--url', 'https://example.com/hook', 'extra'],
      ['webhook', 'list', '--account', '1.5'],
      ['webhook', 'list', 'everything'],
      ['webhook', 'disable'],
      ['webhook', 'enable', 'ep_a', 'ep_b'],
      ['webhook', 'rotate-secret', 'ep_a', '--overlap-hours', '1'],
      ['webhook', 'delete', ''],
      ['webhook', 'test'],
      ['webhook', 'purge', 'ep_a'],
    ];
    for (const args of cases) {
      const result = await runAdminInProcess(url, args);
      const command = `nok admin ${args.join(' ')}`;
      assert.equal(result.code, 2, `${command} → ${result.code}: ${result.stderr}`);
      assert.equal(result.stdout, '', command);
      assert.match(result.stderr, /Usage: nok admin/, command);
    }
    assert.equal(existsSync(url), false, 'no database file was created');
  });

  it('admin help lists the webhook commands', async () => {
    const result = await runAdminInProcess(url, ['help']);
    assert.equal(result.code, 0);
    for (const words of [
      'webhook create --account A --url U [--event T]... [--description D]',
      'webhook list [--account A]',
      'webhook disable ID',
      'webhook enable ID',
      'webhook rotate-secret ID',
      'webhook delete ID',
      'webhook test ID',
    ]) {
      assert.ok(result.stdout.includes(`nok admin ${words}`), words);
    }
  });
});

for (const engine of testEngines()) {
  describe(`nok admin webhook (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;
    const admin = (...args: string[]) => runAdminInProcess(db, args);
    const account = async () =>
      (
        await createAccount(store, {
          name: 'Customer',
          credits: 0,
          nowMs: Date.now(),
          actor: SYSTEM_ACTOR,
        })
      ).id;
    const create = async (accountId: number, ...more: string[]) =>
      jsonOf(
        await admin(
          'webhook',
          'create',
          '--account',
          String(accountId),
          '--url',
          'https://receiver.example/nok',
          ...more,
          '--json',
        ),
      );

    before(async () => {
      db = await engine.create();
      store = createStore(db.database.db);
    });
    after(() => db.drop());

    it('create --json prints the endpoint with its id and whsec_ secret, stores it and audits it', async () => {
      const accountId = await account();
      const created = await create(
        accountId,
        '--event',
        'message.completed',
        '--event',
        'recipients.final',
        '--description',
        'orders service',
      );
      assert.deepEqual(Object.keys(created).sort(), [
        'accountId',
        'createdAt',
        'description',
        'disabledReason',
        'enabled',
        'eventTypes',
        'id',
        'secret',
        'updatedAt',
        'url',
      ]);
      assert.match(created.id as string, /^ep_/);
      assert.match(created.secret as string, SECRET);
      assert.deepEqual(
        {
          accountId: created.accountId,
          url: created.url,
          description: created.description,
          eventTypes: created.eventTypes,
          enabled: created.enabled,
          disabledReason: created.disabledReason,
        },
        {
          accountId,
          url: 'https://receiver.example/nok',
          description: 'orders service',
          // In the order the document lists the types, not the order given.
          eventTypes: ['recipients.final', 'message.completed'],
          enabled: true,
          disabledReason: null,
        },
      );
      const stored = await store.findWebhookEndpoint(created.id as string);
      assert.equal(stored?.accountId, accountId);
      assert.equal(stored?.secret, created.secret);
      const audit = await store.listAuditEvents({
        action: 'webhook.create',
        offset: 0,
        limit: 50,
      });
      const entry = audit.items.find((e) => e.targetId === created.id);
      assert.ok(entry, 'the creation is audited');
      assert.equal(entry.actorUserId, null);
      assert.ok(!JSON.stringify(audit.items).includes(created.secret as string));

      // Without --json: text naming the endpoint, its types, and the secret on a line of its own.
      const text = await admin(
        'webhook',
        'create',
        '--account',
        String(accountId),
        '--url',
        'https://receiver.example/all',
      );
      assert.equal(text.code, 0, text.stderr);
      const match =
        /^Created webhook endpoint (ep_\S+) for account \d+: https:\/\/receiver\.example\/all, every event type\.\n.*\n(whsec_\S+)\n$/.exec(
          text.stdout,
        );
      assert.ok(match, text.stdout);
      assert.equal((await store.findWebhookEndpoint(match[1]!))?.secret, match[2]);
    });

    it('refuses an unknown --event, a bad URL or an unknown account with exit 1, and creates nothing', async () => {
      const accountId = String(await account());
      const url = 'https://receiver.example/nok';
      const results = [
        await admin(
          'webhook',
          'create',
          '--account',
          accountId,
          '--url',
          url,
          '--event',
          'sms.sent',
        ),
        await admin(
          'webhook',
          'create',
          '--account',
          accountId,
          '--url',
          url,
          '--event',
          'message.completed',
          '--event',
          'message.delivered',
        ),
        await admin('webhook', 'create', '--account', accountId, '--url', 'ftp://receiver.example'),
        await admin('webhook', 'create', '--account', '424242', '--url', url),
        await admin('webhook', 'list', '--account', '424242'),
      ];
      const messages = [
        /unknown event type sms\.sent; use recipients\.final, message\.completed/,
        /unknown event type message\.delivered/,
        /url must start with https:\/\//,
        /account 424242 does not exist/,
        /account 424242 does not exist/,
      ];
      results.forEach((result, i) => assertRefused(result, messages[i]!));
      assert.deepEqual(await store.listWebhookEndpoints(Number(accountId)), []);
    });

    it("list shows every account's endpoints, or one account's, with their types and state", async () => {
      const first = await account();
      const second = await account();
      const a = await create(first, '--event', 'balance.low');
      const b = await create(second, '--description', 'second account');

      const one = jsonOf(await admin('webhook', 'list', '--account', String(first), '--json'));
      assert.deepEqual(one, { endpoints: [withoutSecret(a)] });
      const all = jsonOf(await admin('webhook', 'list', '--json'));
      const ids = (all.endpoints as { id: string }[]).map((e) => e.id);
      assert.ok(ids.includes(a.id as string) && ids.includes(b.id as string), ids.join(' '));
      assert.ok(!JSON.stringify(all).includes('whsec_'), 'a listing never prints a secret');

      const text = await admin('webhook', 'list');
      assert.equal(text.code, 0, text.stderr);
      const lineOf = (id: unknown) => text.stdout.split('\n').find((l) => l.startsWith(`${id} `));
      assert.equal(
        lineOf(a.id),
        `${a.id}  account ${first}  https://receiver.example/nok  balance.low  enabled`,
      );
      assert.equal(
        lineOf(b.id),
        `${b.id}  account ${second}  https://receiver.example/nok  every event type  enabled  "second account"`,
      );
      const none = await account();
      const empty = await admin('webhook', 'list', '--account', String(none));
      assert.equal(empty.stdout, `Account ${none} has no webhook endpoints.\n`);
    });

    it('disable and enable change the endpoint, and say why it is disabled', async () => {
      const created = await create(await account());
      const id = created.id as string;
      const disabled = jsonOf(await admin('webhook', 'disable', id, '--json'));
      assert.equal(disabled.enabled, false);
      assert.equal(disabled.disabledReason, 'disabled by a person');
      assert.equal((await store.findWebhookEndpoint(id))?.enabled, false);
      const listed = await admin('webhook', 'list', '--account', String(created.accountId));
      assert.match(listed.stdout, /disabled \(disabled by a person\)$/m);

      const enabled = await admin('webhook', 'enable', id);
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.match(enabled.stdout, new RegExp(`^Enabled webhook endpoint ${id} `));
      const stored = await store.findWebhookEndpoint(id);
      assert.equal(stored?.enabled, true);
      assert.equal(stored?.disabledReason, null);
      const actions = (
        await store.listAuditEvents({
          accountId: created.accountId as number,
          offset: 0,
          limit: 100,
        })
      ).items
        .filter((e) => e.targetId === id)
        .map((e) => e.action);
      assert.ok(actions.includes('webhook.disable') && actions.includes('webhook.enable'));
    });

    it('rotate-secret prints a new secret; the old one keeps signing for NOK_WEBHOOK_SECRET_OVERLAP_HOURS', async () => {
      const created = await create(await account());
      const id = created.id as string;
      const before = Date.now();
      const rotated = jsonOf(await admin('webhook', 'rotate-secret', id, '--json'));
      assert.deepEqual(Object.keys(rotated).sort(), ['id', 'previousSecretUntil', 'secret']);
      assert.equal(rotated.id, id);
      assert.match(rotated.secret as string, SECRET);
      assert.notEqual(rotated.secret, created.secret);
      const stored = (await store.findWebhookEndpoint(id))!;
      assert.equal(stored.secret, rotated.secret);
      assert.equal(stored.previousSecret, created.secret);
      // The default overlap, 24 hours, from the config runAdmin was given.
      const until = Date.parse(rotated.previousSecretUntil as string);
      assert.equal(stored.previousSecretUntil, until);
      assert.ok(
        until >= before + 24 * 3_600_000 && until <= Date.now() + 24 * 3_600_000,
        rotated.previousSecretUntil as string,
      );

      // NOK_WEBHOOK_SECRET_OVERLAP_HOURS=0: the old secret stops signing at once.
      const config = loadConfig({
        NOK_DATABASE_URL: databaseUrlFor(db),
        NOK_LOG_LEVEL: 'silent',
        NOK_WEBHOOK_SECRET_OVERLAP_HOURS: '0',
      });
      let stdout = '';
      let stderr = '';
      const code = await runAdmin(config, ['webhook', 'rotate-secret', id], {
        out: (text) => (stdout += `${text}\n`),
        err: (text) => (stderr += `${text}\n`),
      });
      assert.equal(code, 0, stderr);
      const secret = /^New secret:\n(whsec_\S+)$/m.exec(stdout)?.[1];
      assert.match(stdout, /The old secret no longer signs\./);
      const again = (await store.findWebhookEndpoint(id))!;
      assert.equal(again.secret, secret);
      assert.notEqual(secret, rotated.secret);
      assert.equal(again.previousSecret, null);
      assert.equal(again.previousSecretUntil, null);
    });

    it('test queues a webhook.test event to the endpoint and prints its id', async () => {
      const created = await create(await account());
      const id = created.id as string;
      const sent = jsonOf(await admin('webhook', 'test', id, '--json'));
      assert.equal(sent.id, id);
      assert.match(sent.eventId as string, /^msg_[A-Za-z0-9_-]{22}$/);
      const endpoint = (await store.findWebhookEndpoint(id))!;
      const deliveries = await store.listWebhookDeliveries(endpoint.id, { limit: 10 });
      assert.deepEqual(
        deliveries.map((d) => [d.eventUid, d.eventType, d.state]),
        [[sent.eventId, 'webhook.test', 'pending']],
      );

      // To a disabled endpoint the event waits, and the text says so.
      assert.equal((await admin('webhook', 'disable', id)).code, 0);
      const waiting = await admin('webhook', 'test', id);
      assert.equal(waiting.code, 0, waiting.stderr);
      assert.match(
        waiting.stdout,
        /^Queued webhook\.test event msg_\S+ for ep_\S+ \(https:\/\/receiver\.example\/nok\); the endpoint is disabled, so it is posted once the endpoint is enabled\.\n$/,
      );
      assert.equal((await store.listWebhookDeliveries(endpoint.id, { limit: 10 })).length, 2);
    });

    it('delete removes the endpoint', async () => {
      const created = await create(await account());
      const id = created.id as string;
      const deleted = await admin('webhook', 'delete', id, '--json');
      assert.deepEqual(jsonOf(deleted), { id, deleted: true });
      assert.equal(await store.findWebhookEndpoint(id), null);
      const listed = jsonOf(
        await admin('webhook', 'list', '--account', String(created.accountId), '--json'),
      );
      assert.deepEqual(listed, { endpoints: [] });
    });

    it('refuses every command naming an unknown endpoint with exit 1 and "does not exist"', async () => {
      const missing = 'ep_doesNotExist00';
      for (const verb of ['disable', 'enable', 'rotate-secret', 'delete', 'test']) {
        assertRefused(
          await admin('webhook', verb, missing),
          new RegExp(`^nok admin webhook ${verb}: webhook endpoint ${missing} does not exist`),
        );
      }
    });
  });
}

function withoutSecret(endpoint: Record<string, unknown>): Record<string, unknown> {
  const { secret: _secret, ...rest } = endpoint;
  return rest;
}
