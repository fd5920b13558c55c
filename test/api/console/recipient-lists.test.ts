import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../../src/api/app.js';
import type { Database } from '../../../src/storage/engine.js';
import { openDatabase } from '../../../src/storage/open-database.js';
import { logMailer } from '../../../src/mail/log-mailer.js';
import { createStore } from '../../../src/storage/store.js';
import { consoleActor, type ConsoleActor } from '../../support/console-session.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { expectError } from '../../support/security-suite.js';
import { dispatchersViewOf } from '../../../src/storage/status-board-store.js';

interface ListAnswer {
  id: string;
  requested: number;
  valid: number;
  invalid: number;
  duplicates: number;
}

const HOUR_MS = 60 * 60_000;
const FILE = ['0812345678', '0812345679', '0812345678', '0800000009', 'oops', '66812345670'].join(
  '\n',
);

/**
 * Uploaded lists live in the database (ADR 0034): two api processes — two apps, each with its
 * own connection to one database, as behind a load balancer — serve one person, whose session is
 * in that database too, and any of them serves the dry run and the send of a list another one
 * received.
 */
for (const engine of testEngines()) {
  describe(`uploaded lists served by any api process (${engine.name})`, () => {
    let h: Harness;
    let second: { app: FastifyInstance; database: Database };
    let member: ConsoleActor;
    let accountId: number;

    before(async () => {
      h = await createHarness(engine);
      const database = openDatabase(
        h.db.url,
        h.db.schema === undefined ? {} : { schema: h.db.schema },
      );
      const app = await buildApp({
        store: createStore(database.db),
        clock: h.clock,
        logger: pino({ level: 'silent' }),
        mailer: logMailer(pino({ level: 'silent' })),
        rateLimit: { requests: 100_000, windowSeconds: 60, failedAuthentications: 100_000 },
        sendBodyLimitBytes: 16 * 1024 * 1024,
        dispatchers: dispatchersViewOf(database),
      });
      second = { app, database };
      const account = await h.account({ credits: 1_000, pricePerPart: 2 });
      accountId = account.id;
      member = await consoleActor(h, 'member', { account });
      await h.sender(accountId, 'NOKSHOP');
      await h.store.addToBlocklist(accountId, ['66800000009'], h.clock.now());
    });
    after(async () => {
      await second.app.close();
      await second.database.close();
      await h.close();
    });

    /** A console API request as `actor` through `app`: the first process or the second. */
    function on(
      app: FastifyInstance,
      actor: ConsoleActor,
      options: InjectOptions & { url: string },
    ): Promise<LightMyRequestResponse> {
      return app.inject({
        ...options,
        url: `/console/api${options.url}`,
        headers: { ...actor.headers(), ...options.headers },
      });
    }

    async function upload(app: FastifyInstance, actor: ConsoleActor): Promise<ListAnswer> {
      const response = await on(app, actor, {
        method: 'POST',
        url: '/recipient-lists',
        headers: { 'content-type': 'text/plain' },
        payload: FILE,
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as ListAnswer;
    }

    const send = (app: FastifyInstance, payload: object) =>
      on(app, member, { method: 'POST', url: '/messages', payload });
    const balance = async () => (await h.store.findAccount(accountId))!.balance;

    it('takes the upload on one process and the preview, dry run and send on the other, once', async () => {
      const list = await upload(h.app, member);
      assert.deepEqual([list.requested, list.valid, list.invalid, list.duplicates], [6, 4, 1, 1]);
      const expected = {
        requested: 6,
        unique: 5,
        duplicates: 1,
        valid: 4,
        invalid: 1,
        blocked: 1,
        charged: 3,
      };
      const preview = await on(second.app, member, {
        method: 'POST',
        url: '/messages/preview-cost',
        payload: { content: 'Hello', recipientListId: list.id },
      });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.deepEqual(preview.json().recipients, expected);
      const dry = await send(second.app, {
        sender: 'NOKSHOP',
        content: 'Hello',
        recipientListId: list.id,
        dryRun: true,
      });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(dry.json().recipients, expected);

      const before = await balance();
      const sent = await send(second.app, {
        sender: 'NOKSHOP',
        content: 'Hello',
        recipientListId: list.id,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.deepEqual(sent.json().recipients, expected);
      assert.equal(await balance(), before - 3 * 2);
      const recipients = await on(h.app, member, {
        method: 'GET',
        url: `/messages/${sent.json().uuid}/recipients`,
      });
      assert.equal(recipients.statusCode, 200, recipients.body);
      assert.deepEqual(
        (recipients.json().data as { msisdn: string; status: string }[]).map((r) => [
          r.msisdn,
          r.status,
        ]),
        [
          ['66812345678', 'pending'],
          ['66812345679', 'pending'],
          ['66800000009', 'blocked'],
          ['66812345670', 'pending'],
          ['oops', 'invalid'],
        ],
      );

      // A second confirmation, on either process, sends nothing.
      for (const app of [h.app, second.app]) {
        expectError(
          await send(app, { sender: 'NOKSHOP', content: 'Again', recipientListId: list.id }),
          404,
          'NOT_FOUND',
        );
      }
      assert.equal(await balance(), before - 6);
      assert.equal(await h.store.findRecipientList(list.id), null);
    });

    it('sends a list once when both processes are asked to at the same moment', async () => {
      const list = await upload(second.app, member);
      const before = await balance();
      const body = { sender: 'NOKSHOP', content: 'Race', recipientListId: list.id };
      const answers = await Promise.all([send(h.app, body), send(second.app, body)]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 404]);
      assert.equal(await balance(), before - 3 * 2);
      const { total } = await h.store.listMessages(accountId, {
        search: 'Race',
        limit: 10,
        offset: 0,
      });
      assert.equal(total, 1);
    });

    it('keeps an account three lists: a fourth upload drops the oldest, not another account’s', async () => {
      const other = await consoleActor(h, 'owner');
      const theirs = await upload(second.app, other);
      const lists = [];
      for (let i = 0; i < 4; i++) lists.push(await upload(i % 2 ? h.app : second.app, member));
      const dryRun = (app: FastifyInstance, actor: ConsoleActor, id: string) =>
        on(app, actor, {
          method: 'POST',
          url: '/messages/preview-cost',
          payload: { content: 'x', recipientListId: id },
        });
      expectError(await dryRun(h.app, member, lists[0]!.id), 404, 'NOT_FOUND');
      for (const list of lists.slice(1)) {
        assert.equal((await dryRun(second.app, member, list.id)).statusCode, 200);
      }
      assert.equal((await dryRun(h.app, other, theirs.id)).statusCode, 200);
      expectError(await dryRun(h.app, member, theirs.id), 403, 'FORBIDDEN');
    });

    it('refuses a list once its hour is up, on the process that received it too', async () => {
      const list = await upload(h.app, member);
      h.clock.advance(HOUR_MS - 1);
      // The member's session has gone idle meanwhile: a colleague carries on.
      const colleague = await consoleActor(h, 'member', { account: member.account! });
      const dryRun = (app: FastifyInstance) =>
        on(app, colleague, {
          method: 'POST',
          url: '/messages',
          payload: { sender: 'NOKSHOP', content: 'Late', recipientListId: list.id, dryRun: true },
        });
      assert.equal((await dryRun(h.app)).statusCode, 200);
      h.clock.advance(1);
      expectError(await dryRun(h.app), 404, 'NOT_FOUND');
      expectError(await dryRun(second.app), 404, 'NOT_FOUND');
    });
  });
}
