// Nok behind PgBouncer in transaction mode (Debian's pgbouncer, started here): `nok api`,
// `nok scheduler` and `nok dispatcher` as processes of their own reach PostgreSQL through the
// pooler, and listen for each other's wake-ups on NOK_DATABASE_DIRECT_URL, which a pooler in
// transaction mode cannot carry. Every poll is set to a minute, so a send that is final within
// seconds was woken through the direct connection and stored through the pooler.
//
// The pooler cannot pass a schema in `options`, so this test has a database of its own.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import { writeSimCarriersFile } from '../support/carriers-file.js';
import { testEngines } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { jsonOf, runAdminInProcess, startNok } from './nok-process.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';
const POLL_MS = '60000';

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const postgres = testEngines().find((engine) => engine.name === 'postgres');
if (postgres) {
  describe('behind PgBouncer in transaction mode (postgres)', () => {
    const serverUrl = new URL(process.env.NOK_TEST_PG_URL!);
    const name = `nok_pgbouncer_${randomBytes(4).toString('hex')}`;
    let admin: pg.Client;
    let dir: string;
    let bouncer: ChildProcess;
    let bouncerLog = '';
    let pooledUrl: string;
    let directUrl: string;
    let smsc: RunningSmsc;
    const roles = new Set<ChildProcess>();

    before(async () => {
      assert.ok(existsSync(PGBOUNCER), `${PGBOUNCER} is missing: npm test installs pgbouncer`);
      admin = new pg.Client({ connectionString: serverUrl.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      directUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

      const port = await freePort();
      dir = mkdtempSync(join(tmpdir(), 'nok-pgbouncer-'));
      // Read by pgbouncer after it takes the postgres user's identity when started as root.
      chmodSync(dir, 0o755);
      const user = decodeURIComponent(serverUrl.username || 'postgres');
      writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
      writeFileSync(
        join(dir, 'pgbouncer.ini'),
        [
          '[databases]',
          `${name} = host=${serverUrl.hostname} port=${serverUrl.port || 5432} dbname=${name} user=${user}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${port}`,
          'unix_socket_dir =',
          'auth_type = trust',
          `auth_file = ${join(dir, 'users.txt')}`,
          'pool_mode = transaction',
          'default_pool_size = 10',
          'max_client_conn = 200',
          'ignore_startup_parameters = extra_float_digits',
          '',
        ].join('\n'),
        { mode: 0o644 },
      );
      const asRoot = process.getuid?.() === 0;
      bouncer = spawn(
        PGBOUNCER,
        [...(asRoot ? ['-u', 'postgres'] : []), '-v', join(dir, 'pgbouncer.ini')],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      bouncer.stdout!.on('data', (chunk: Buffer) => (bouncerLog += chunk.toString()));
      bouncer.stderr!.on('data', (chunk: Buffer) => (bouncerLog += chunk.toString()));
      await waitFor('pgbouncer to listen', async () => {
        if (bouncer.exitCode !== null) throw new Error(`pgbouncer exited:\n${bouncerLog}`);
        return /listening on 127\.0\.0\.1:\d+/.test(bouncerLog);
      });
      pooledUrl = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${name}`;
      smsc = await startSmsc({ preset: 'happy' });
    });

    after(async () => {
      for (const child of roles) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await smsc?.close();
      if (bouncer && bouncer.exitCode === null) {
        const exited = once(bouncer, 'exit');
        bouncer.kill('SIGTERM');
        await exited;
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Starts `nok <role>` on the pooler, every poll at a minute, once its output matches `ready`. */
    async function role(command: string, env: Record<string, string>, ready: RegExp) {
      const started = await startNok(
        pooledUrl,
        [command],
        {
          NOK_DATABASE_DIRECT_URL: directUrl,
          NOK_LOG_LEVEL: 'info',
          NOK_LOG_FORMAT: 'json',
          NOK_SCHEDULER_INTERVAL_MS: POLL_MS,
          NOK_DISPATCH_IDLE_POLL_MS: POLL_MS,
          ...env,
        },
        ready,
      );
      roles.add(started.child);
      return started;
    }

    it('migrates, takes operator commands, accepts, wakes and delivers through the pooler', async () => {
      // The operator's commands through the pooler too: they migrate the empty database.
      const account = jsonOf(
        await runAdminInProcess(pooledUrl, [
          'account',
          'create',
          '--name',
          'Pooled',
          '--credits',
          '10000',
          '--json',
        ]),
      );
      const accountId = String(account.id);
      jsonOf(
        await runAdminInProcess(pooledUrl, [
          'sender',
          'create',
          '--account',
          accountId,
          '--name',
          'POOLED',
          '--status',
          'approved',
          '--json',
        ]),
      );
      const { key } = jsonOf(
        await runAdminInProcess(pooledUrl, [
          'key',
          'create',
          '--account',
          accountId,
          '--scope',
          '*',
          '--json',
        ]),
      ) as { key: string };

      const carriersFile = writeSimCarriersFile(dir, smsc, { binds: 2 });
      const port = await freePort();
      await role('scheduler', {}, /"msg":"nok started"/);
      const dispatcher = await role(
        'dispatcher',
        { NOK_CARRIERS_FILE: carriersFile },
        /"msg":"bind up"/,
      );
      await role('api', { NOK_HOST: '127.0.0.1', NOK_PORT: String(port) }, /"msg":"nok started"/);

      const send = async (msisdns: string[]) => {
        const answer = await fetch(`http://127.0.0.1:${port}/api/v2/sms/send`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ sender: 'POOLED', content: 'pooled', msisdns }),
        });
        assert.equal(answer.status, 200, await answer.clone().text());
        return ((await answer.json()) as { uuid: string }).uuid;
      };
      const summary = async (uuid: string) => {
        const page = await fetch(`http://127.0.0.1:${port}/api/v2/sms/${uuid}/recipients?limit=1`, {
          headers: { 'x-api-key': key },
        });
        const body = (await page.json()) as { summary: { status: string; count: number }[] };
        return new Map(body.summary.map((s) => [s.status, s.count]));
      };

      const started = Date.now();
      const one = await send(['0812345678']);
      await waitFor(
        'the one-number send to be final',
        async () => (await summary(one)).get('success') === 1,
      );
      assert.ok(Date.now() - started < Number(POLL_MS) / 2, 'woken, not polled');

      const numbers = Array.from({ length: 2_000 }, (_, i) => `08${String(20_000_000 + i)}`);
      const many = await send(numbers);
      await waitFor('2,000 recipients to be final', async () => {
        const counts = await summary(many);
        return counts.get('pending') === 0 && counts.get('success') === numbers.length;
      });

      assert.match(
        bouncerLog,
        new RegExp(`login attempt: db=${name}`),
        'Nok came in through the pooler',
      );
      assert.doesNotMatch(dispatcher.output(), /"level":50/, 'the dispatcher logged no error');
      const exited = once(dispatcher.child, 'exit') as Promise<[number | null]>;
      dispatcher.child.kill('SIGTERM');
      assert.deepEqual((await exited)[0], 0);
    });
  });
}
