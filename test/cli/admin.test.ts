import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/api/app.js';
import { apiKeySecret, hashApiKey } from '../../src/domain/accounts/api-key.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { systemClock } from '../../src/domain/clock.js';
import type { Store } from '../../src/domain/store.js';
import { dispatchersViewOf } from '../../src/storage/status-board-store.js';
import { logMailer } from '../../src/mail/log-mailer.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { assertRefused, jsonOf, runAdminInProcess, runNok } from './nok-process.js';
import { contractInject } from '../support/served-contract.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

// The command-line suite spawns the real `nok`; the per-command suites call the same runAdmin
// in this process (a spawn costs over a second of CPU). Fixtures the command under test does
// not create (accounts, senders) are made through the store.

describe('nok admin command line', () => {
  let dir: string;
  let url: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'nok-admin-usage-'));
    url = join(dir, 'never-created.db');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a malformed command line with exit 2 and the usage, without opening the database', async () => {
    const cases = [
      ['account', 'create'],
      ['account', 'create', '--name', 'X', '--colour', 'red'],
      ['key', 'create', '--account', 'one', '--scope', '*'],
      ['credits', 'add', '--account', '1', '--amount', '-5'],
      ['blocklist', 'add', '--account', '1', '--platform', '0812345678'],
      ['blocklist', 'add', '--platform'],
      ['account', 'delete', '--name', 'X'],
      ['user', 'create', '--email', 'a@b.test', '--name', 'Not an admin'],
      ['user', 'create', '--admin', '--name', 'No email'],
      [],
    ];
    const results = await Promise.all(cases.map((args) => runNok(url, ['admin', ...args])));
    results.forEach((result, i) => {
      const command = `nok admin ${cases[i]!.join(' ')}`;
      assert.equal(result.code, 2, `${command} → ${result.code}: ${result.stderr}`);
      assert.equal(result.stdout, '', command);
      assert.match(result.stderr, /Usage: nok admin/, command);
    });
    assert.equal(existsSync(url), false, 'no database file was created');
  });

  it('admin help lists every command on stdout and exits 0', async () => {
    const result = await runNok(url, ['admin', 'help']);
    assert.equal(result.code, 0);
    const commands = [
      'account create --name',
      'key create --account',
      'key revoke --key-id',
      'sender create --account',
      'credits add --account',
      'template create --account',
      'group create --account',
      'blocklist add (--account A | --platform)',
      'user create --admin --email E --name N',
    ];
    for (const words of commands) assert.ok(result.stdout.includes(`nok admin ${words}`), words);
  });
});

for (const engine of testEngines()) {
  describe(`nok admin (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;
    let app: FastifyInstance;
    /** The app's /api/v2, each answer held to the contract it serves. */
    let api: ReturnType<typeof contractInject>;
    let dir: string;
    const admin = (...args: string[]) => runAdminInProcess(db, args);
    const account = async (credits = 0) => {
      const created = await createAccount(store, {
        name: 'Customer',
        credits,
        nowMs: Date.now(),
        actor: SYSTEM_ACTOR,
      });
      return created.id;
    };

    before(async () => {
      db = await engine.create();
      store = createStore(db.database.db);
      app = await buildApp({
        store,
        clock: systemClock,
        logger: pino({ level: 'silent' }),
        mailer: logMailer(pino({ level: 'silent' })),
        rateLimit: { requests: 100_000, windowSeconds: 60, failedAuthentications: 100_000 },
        sendBodyLimitBytes: 1024 * 1024,
        dispatchers: dispatchersViewOf(db.database),
      });
      api = contractInject(app);
      dir = mkdtempSync(join(tmpdir(), 'nok-admin-'));
    });
    after(async () => {
      await app.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('account create prints the account as one JSON object, or as text, and records the opening credits', async () => {
      const [json, text] = await Promise.all([
        admin(
          'account',
          'create',
          '--name',
          'Acme',
          '--credits',
          '500',
          '--price-per-part',
          '2',
          '--json',
        ),
        admin('account', 'create', '--name', 'Plain'),
      ]);
      const created = jsonOf(json);
      assert.deepEqual(Object.keys(created).sort(), ['balance', 'id', 'name', 'pricePerPart']);
      assert.deepEqual(
        { ...created, id: 0 },
        { id: 0, name: 'Acme', balance: 500, pricePerPart: 2 },
      );
      const acme = await store.findAccount(created.id as number);
      assert.equal(acme?.name, 'Acme');
      assert.equal(acme?.balance, 500);
      assert.equal(acme?.pricePerPart, 2);
      assert.equal(await store.ledgerSum(acme!.id), 500);

      assert.equal(text.code, 0, text.stderr);
      const match = /^Created account (\d+) "Plain": 0 credits, 1 credit per part\.\n$/.exec(
        text.stdout,
      );
      assert.ok(match, text.stdout);
      const plain = await store.findAccount(Number(match[1]));
      assert.equal(plain?.balance, 0);
      assert.equal(plain?.pricePerPart, 1);
    });

    it('credits add tops up with a top-up ledger row, keeps the ledger sum equal to the balance, and refuses 0', async () => {
      const accountId = await account(100);
      const [added, zero] = await Promise.all([
        admin(
          'credits',
          'add',
          '--account',
          String(accountId),
          '--amount',
          '250',
          '--note',
          'invoice 7',
          '--json',
        ),
        admin('credits', 'add', '--account', String(accountId), '--amount', '0'),
      ]);
      assert.deepEqual(jsonOf(added), { accountId, balance: 350 });
      assertRefused(zero, /above 0/);
      assert.equal((await store.findAccount(accountId))?.balance, 350);
      assert.equal(await store.ledgerSum(accountId), 350);
      const rows = await fromLedger(db.database.db)
        .select(['delta', 'reason', 'note', 'balance_after'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
      assert.equal(rows.length, 2);
      assert.deepEqual(rows[1], {
        delta: 250,
        reason: 'top-up',
        note: 'invoice 7',
        balance_after: 350,
      });
    });

    it('a key created by the CLI is stored hashed, authenticates against the API, and answers 401 once revoked', async () => {
      const accountId = await account(100);
      await store.createSender({
        accountId,
        name: 'CLIKEY',
        status: 'approved',
        nowMs: Date.now(),
      });
      const json = jsonOf(
        await admin(
          'key',
          'create',
          '--account',
          String(accountId),
          '--scope',
          '*',
          '--name',
          'ci',
          '--json',
        ),
      );
      assert.deepEqual(Object.keys(json).sort(), ['accountId', 'id', 'key', 'prefix', 'scopes']);
      assert.equal(json.accountId, accountId);
      assert.deepEqual(json.scopes, ['*']);
      const key = json.key as string;
      assert.ok(key.startsWith(`nok_${json.prefix as string}_`), key);

      const record = await store.findApiKey(json.id as number);
      assert.equal(record?.name, 'ci');
      assert.equal(record?.secretHash, hashApiKey(key));
      assert.ok(!record?.secretHash.includes(apiKeySecret(key)!), 'the secret is not stored');

      const headers = { 'x-api-key': key };
      const balance = await api({
        method: 'GET',
        url: '/api/v2/sms/credit/balance',
        headers,
      });
      assert.equal(balance.statusCode, 200, balance.body);
      assert.deepEqual(balance.json(), { balance: 100, creditsPerPart: 1 });
      const sent = await api({
        method: 'POST',
        url: '/api/v2/sms/send',
        headers,
        payload: { sender: 'CLIKEY', content: 'Hello', msisdns: ['0812345678'] },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(sent.json().balance, 99);

      const revoked = await admin('key', 'revoke', '--key-id', String(json.id), '--json');
      assert.deepEqual(jsonOf(revoked), { id: json.id, revoked: true });
      const refused = await api({
        method: 'GET',
        url: '/api/v2/sms/credit/balance',
        headers,
      });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().code, 'UNAUTHORIZED');

      // Revoking again is harmless; an unknown key id is refused.
      const [again, unknown] = await Promise.all([
        admin('key', 'revoke', '--key-id', String(json.id), '--json'),
        admin('key', 'revoke', '--key-id', '999999'),
      ]);
      assert.deepEqual(jsonOf(again), { id: json.id, revoked: true });
      assertRefused(unknown, /API key 999999 does not exist/);
    });

    it('key create keeps the given scopes: an sms:read key reads but may not send; an unknown scope is refused', async () => {
      const accountId = await account(100);
      await store.createSender({
        accountId,
        name: 'READER',
        status: 'approved',
        nowMs: Date.now(),
      });
      const [created, unknownScope] = await Promise.all([
        admin(
          'key',
          'create',
          '--account',
          String(accountId),
          '--scope',
          'sms:read',
          '--scope',
          'sms:read',
          '--json',
        ),
        admin('key', 'create', '--account', String(accountId), '--scope', 'sms:write'),
      ]);
      const json = jsonOf(created);
      assert.deepEqual(json.scopes, ['sms:read']);
      assert.deepEqual((await store.findApiKey(json.id as number))?.scopes, ['sms:read']);
      assertRefused(unknownScope, /unknown scope sms:write/);

      const headers = { 'x-api-key': json.key as string };
      const balance = await api({
        method: 'GET',
        url: '/api/v2/sms/credit/balance',
        headers,
      });
      assert.equal(balance.statusCode, 200);
      const sent = await api({
        method: 'POST',
        url: '/api/v2/sms/send',
        headers,
        payload: { sender: 'READER', content: 'Hello', msisdns: ['0812345678'] },
      });
      assert.equal(sent.statusCode, 403);
      assert.equal(sent.json().code, 'SCOPE_INSUFFICIENT');
    });

    it('sender create defaults to pending and shares the name with other accounts', async () => {
      const owner = await account();
      const partner = await account();
      const [shared, solo] = await Promise.all([
        admin(
          'sender',
          'create',
          '--account',
          String(owner),
          '--name',
          'MY SHOP',
          '--share-with',
          String(partner),
          '--json',
        ),
        admin(
          'sender',
          'create',
          '--account',
          String(partner),
          '--name',
          'SOLO',
          '--status',
          'approved',
          '--json',
        ),
      ]);
      const json = jsonOf(shared);
      assert.deepEqual(
        { ...json, id: 0 },
        { id: 0, name: 'MY SHOP', status: 'pending', accountId: owner, sharedWith: [partner] },
      );
      const sender = await store.findSenderByName('MY SHOP');
      assert.equal(sender?.id, json.id);
      assert.equal(sender?.status, 'pending');
      assert.equal(await store.isSenderSharedWith(sender!.id, partner), true);
      assert.deepEqual(
        (await store.listVisibleSenders(partner)).map((s) => [s.name, s.status, s.shared]),
        [
          ['MY SHOP', 'pending', true],
          ['SOLO', 'approved', false],
        ],
      );
      assert.deepEqual(jsonOf(solo).sharedWith, []);
    });

    it('sender create refuses a taken name, a bad name, an unknown status or share account, and stores nothing', async () => {
      const owner = await account();
      await store.createSender({
        accountId: owner,
        name: 'TAKEN',
        status: 'approved',
        nowMs: Date.now(),
      });
      const other = String(await account());
      const results = await Promise.all([
        admin('sender', 'create', '--account', other, '--name', 'TAKEN'),
        admin('sender', 'create', '--account', other, '--name', 'TWELVECHARSX'),
        admin('sender', 'create', '--account', other, '--name', 'BAD\u0e01'),
        admin('sender', 'create', '--account', other, '--name', 'OK', '--status', 'live'),
        admin('sender', 'create', '--account', other, '--name', 'SHARED', '--share-with', '987654'),
      ]);
      const messages = [
        /TAKEN is already registered/,
        /1 to 11 characters/,
        /letters, digits and symbols/,
        /unknown sender status live/,
        /account 987654 does not exist/,
      ];
      results.forEach((result, i) => assertRefused(result, messages[i]!));
      assert.equal((await store.findSenderByName('TAKEN'))?.accountId, owner);
      for (const name of ['TWELVECHARSX', 'OK', 'SHARED'])
        assert.equal(await store.findSenderByName(name), null);
    });

    it('template create stores the body and lists the variables found in {{...}}', async () => {
      const accountId = await account();
      const body = 'Hi {{name}}, your code is {{code}}. Bye {{name}}';
      const json = jsonOf(
        await admin(
          'template',
          'create',
          '--account',
          String(accountId),
          '--name',
          'otp',
          '--body',
          body,
          '--json',
        ),
      );
      assert.deepEqual(
        { ...json, id: 0 },
        { id: 0, name: 'otp', body, variables: ['name', 'code'] },
      );
      assert.deepEqual(await store.findTemplate(json.id as number), {
        id: json.id,
        accountId,
        name: 'otp',
        body,
      });
    });

    it('group create imports each valid number once, drops duplicates, and reports invalid lines without importing them', async () => {
      const accountId = await account();
      const file = join(dir, 'numbers.csv');
      const lines = [
        'msisdn,name',
        '0812345678,Somchai',
        '66812345678,again',
        'not-a-number',
        '',
        '0899999999',
        '+66811111111',
        '0899999999',
      ];
      writeFileSync(file, lines.join('\r\n'));
      const json = jsonOf(
        await admin(
          'group',
          'create',
          '--account',
          String(accountId),
          '--name',
          'customers',
          '--file',
          file,
          '--json',
        ),
      );
      assert.deepEqual(
        { ...json, id: 0 },
        {
          id: 0,
          name: 'customers',
          imported: 2,
          duplicates: 2,
          invalid: 2,
          invalidSamples: [
            { line: 4, value: 'not-a-number', reason: 'not-digits' },
            { line: 7, value: '+66811111111', reason: 'not-digits' },
          ],
        },
      );
      assert.deepEqual(await store.findContactGroup(json.id as number), {
        id: json.id,
        accountId,
        name: 'customers',
      });
      assert.deepEqual((await store.contactNumbers(json.id as number)).sort(), [
        '66812345678',
        '66899999999',
      ]);
    });

    it('group create imports a 100,000-line file, and refuses an unreadable file without creating a group', async () => {
      const accountId = await account();
      const file = join(dir, 'big.txt');
      const numbers = Array.from({ length: 100_000 }, (_, i) => `08${String(i).padStart(8, '0')}`);
      writeFileSync(file, ['phone', ...numbers, 'oops'].join('\n') + '\n');
      const missing = join(dir, 'missing.csv');
      // One after the other: a SQLite writer holding the file for the big import would make the
      // other process wait on its lock.
      const big = await admin(
        'group',
        'create',
        '--account',
        String(accountId),
        '--name',
        'big',
        '--file',
        file,
        '--json',
      );
      const unreadable = await admin(
        'group',
        'create',
        '--account',
        String(accountId),
        '--name',
        'x',
        '--file',
        missing,
      );
      const json = jsonOf(big);
      assert.equal(json.imported, 100_000);
      assert.equal(json.duplicates, 0);
      assert.equal(json.invalid, 1);
      const stored = new Set(await store.contactNumbers(json.id as number));
      assert.equal(stored.size, 100_000);
      assert.ok(stored.has('66800000000') && stored.has('66800099999'));

      assertRefused(unreadable, /cannot read .*missing\.csv/);
      const groups = await db.database.db
        .selectFrom('contact_groups')
        .select('name')
        .where('account_id', '=', accountId)
        .execute();
      assert.deepEqual(groups, [{ name: 'big' }]);
    });

    it('blocklist add blocks for one account with --account and for every account with --platform', async () => {
      const blocker = await account();
      const other = await account();
      const [own, platform] = await Promise.all([
        admin(
          'blocklist',
          'add',
          '--account',
          String(blocker),
          '0811111111',
          '66811111112',
          '--json',
        ),
        admin('blocklist', 'add', '--platform', '0822222222', '--json'),
      ]);
      assert.deepEqual(jsonOf(own), { scope: blocker, added: 2 });
      assert.deepEqual(jsonOf(platform), { scope: 0, added: 1 });

      const forBlocker = await store.blockedNumbers(blocker);
      for (const n of ['66811111111', '66811111112', '66822222222'])
        assert.ok(forBlocker.has(n), n);
      const forOther = await store.blockedNumbers(other);
      assert.ok(forOther.has('66822222222'), 'platform-wide applies to every account');
      assert.ok(!forOther.has('66811111111'), "one account's list does not apply to another");

      const [again, invalid] = await Promise.all([
        admin('blocklist', 'add', '--account', String(blocker), '66811111111', '--json'),
        admin('blocklist', 'add', '--account', String(other), '0833333333', '12345'),
      ]);
      assert.deepEqual(jsonOf(again), { scope: blocker, added: 0 });
      assertRefused(invalid, /not valid numbers: 12345/);
      assert.ok(!(await store.blockedNumbers(other)).has('66833333333'), 'nothing was added');
    });

    it('refuses every command naming an unknown account with exit 1 and "account N does not exist"', async () => {
      const file = join(dir, 'one.csv');
      writeFileSync(file, '0812345678\n');
      const missing = '424242';
      const results = await Promise.all([
        admin('key', 'create', '--account', missing, '--scope', '*'),
        admin('sender', 'create', '--account', missing, '--name', 'NOBODY'),
        admin('credits', 'add', '--account', missing, '--amount', '5'),
        admin('template', 'create', '--account', missing, '--name', 't', '--body', 'b'),
        admin('group', 'create', '--account', missing, '--name', 'g', '--file', file),
        admin('blocklist', 'add', '--account', missing, '0812345678'),
      ]);
      for (const result of results) assertRefused(result, /account 424242 does not exist/);
      assert.equal(await store.findSenderByName('NOBODY'), null);
    });

    it('user create --admin makes a platform admin with a password shown once, who signs in to enrol TOTP first', async () => {
      const result = await admin(
        'user',
        'create',
        '--admin',
        '--email',
        'First.Admin@Nok.Example',
        '--name',
        'First Admin',
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Created platform admin \d+ first\.admin@nok\.example/);
      assert.match(result.stdout, /two-factor sign-in \(TOTP\)/);
      const password = /store it now:\n(\S+)\n/.exec(result.stdout)?.[1];
      assert.ok(password && password.length >= 20, result.stdout);
      const user = (await store.findUserByEmail('first.admin@nok.example'))!;
      assert.equal(user.role, 'admin');
      assert.equal(user.accountId, null);
      assert.equal(user.totpEnabledAt, null);
      assert.match(user.passwordHash!, /^\$argon2id\$/);
      const audit = await store.listAuditEvents({ action: 'user.create', offset: 0, limit: 10 });
      assert.ok(audit.items.some((e) => e.targetId === String(user.id) && e.actorUserId === null));
      assert.ok(!JSON.stringify(audit.items).includes(password));

      // The password signs in, to a session that may only enrol.
      const probe = await app.inject({ method: 'GET', url: '/console/api/session' });
      const cookie = `nok_session=${probe.cookies.find((c) => c.name === 'nok_session')!.value}`;
      const headers = {
        cookie,
        'x-csrf-token': (probe.json() as { csrfToken: string }).csrfToken,
        origin: 'http://localhost',
      };
      const signIn = await app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers,
        payload: { email: 'first.admin@nok.example', password },
      });
      assert.equal(signIn.statusCode, 200, signIn.body);
      assert.equal(signIn.json().user.totpRequired, 'role');
      assert.equal(signIn.json().user.totpEnabled, false);
      const session = signIn.cookies.find((c) => c.name === 'nok_session')!.value;
      const accounts = await app.inject({
        method: 'GET',
        url: '/console/api/admin/accounts',
        headers: { cookie: `nok_session=${session}` },
      });
      assert.equal(accounts.statusCode, 403, accounts.body);
      assert.equal(accounts.json().code, 'TOTP_ENROLMENT_REQUIRED');
    });

    it('user create --admin reads the password from --password-file, and refuses a short one or a taken email', async () => {
      const good = join(dir, 'admin-password');
      writeFileSync(good, 'a long enough passphrase\n');
      const short = join(dir, 'short-password');
      writeFileSync(short, 'short\n');
      const json = await admin(
        'user',
        'create',
        '--admin',
        '--email',
        'second@nok.example',
        '--name',
        'Second',
        '--password-file',
        good,
        '--json',
      );
      const created = jsonOf(json);
      assert.equal(created.role, 'admin');
      assert.equal(created.password, undefined, 'a password from a file is not printed');
      assert.ok(!json.stdout.includes('a long enough passphrase'));
      const [taken, tooShort, missing] = [
        await admin(
          'user',
          'create',
          '--admin',
          '--email',
          'SECOND@nok.example',
          '--name',
          'Again',
        ),
        await admin(
          'user',
          'create',
          '--admin',
          '--email',
          'third@nok.example',
          '--name',
          'Third',
          '--password-file',
          short,
        ),
        await admin(
          'user',
          'create',
          '--admin',
          '--email',
          'fourth@nok.example',
          '--name',
          'Fourth',
          '--password-file',
          join(dir, 'no-such-file'),
        ),
      ];
      assertRefused(taken, /second@nok\.example has a sign-in already/);
      assertRefused(tooShort, /at least|12 to 1024 characters/);
      assertRefused(missing, /cannot read .*no-such-file/);
      assert.equal(await store.findUserByEmail('third@nok.example'), null);
    });
  });
}
