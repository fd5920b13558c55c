// Wake-ups between processes on PostgreSQL (docs/adr/0052). With every poll set to a minute,
// a one-number send through `nok api`, `nok scheduler` and `nok dispatcher` as processes of
// their own reaches its final status in well under that only if each process wakes the next;
// and a listener whose connection is cut connects again, looks for work at once, and hears
// the next wake-up.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { WakeTopic } from '../../src/storage/engine.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import { writeSimCarriersFile } from '../support/carriers-file.js';
import { testEngines } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { createHarness, type Harness } from '../support/harness.js';
import { databaseUrlFor, startNok } from './nok-process.js';

/** Every poll of the roles: nothing is found by polling within a test's time. */
const POLL_MS = '60000';

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const engine of testEngines().filter((e) => e.name === 'postgres')) {
  describe('wake-ups between processes (postgres)', () => {
    let h: Harness;
    let url: string;
    let smsc: RunningSmsc;
    let dir: string;
    const children = new Set<ChildProcess>();

    /** Starts `nok <role>`, every poll at a minute, once its output matches `ready`. */
    async function role(name: string, env: Record<string, string>, ready: RegExp) {
      const started = await startNok(
        h.db,
        [name],
        {
          NOK_LOG_LEVEL: 'info',
          NOK_LOG_FORMAT: 'json',
          NOK_SCHEDULER_INTERVAL_MS: POLL_MS,
          NOK_DISPATCH_IDLE_POLL_MS: POLL_MS,
          ...env,
        },
        ready,
      );
      children.add(started.child);
    }

    before(async () => {
      h = await createHarness(engine);
      url = databaseUrlFor(h.db);
      smsc = await startSmsc({ preset: 'happy' });
      dir = mkdtempSync(join(tmpdir(), 'nok-wakes-'));
    });
    after(async () => {
      for (const child of children) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await smsc.close();
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a send through api, scheduler and dispatcher processes is final long before any poll', async () => {
      const carriersFile = writeSimCarriersFile(dir, smsc);
      const customer = await h.customer();
      const port = await freePort();
      await role('scheduler', {}, /"msg":"nok started"/);
      await role('dispatcher', { NOK_CARRIERS_FILE: carriersFile }, /"msg":"bind up"/);
      await role('api', { NOK_HOST: '127.0.0.1', NOK_PORT: String(port) }, /"msg":"nok started"/);
      // The roles' first looks, at their start, are behind them: only a wake-up finds this send.
      const started = Date.now();
      const answer = await fetch(`http://127.0.0.1:${port}/api/v2/sms/send`, {
        method: 'POST',
        headers: { 'x-api-key': customer.key, 'content-type': 'application/json' },
        body: JSON.stringify({
          sender: customer.sender,
          content: 'wake up',
          msisdns: ['0812345678'],
        }),
      });
      assert.equal(answer.status, 200);
      const { uuid } = (await answer.json()) as { uuid: string };
      let status: string | undefined;
      await waitFor('the recipient to be final', async () => {
        const page = await fetch(`http://127.0.0.1:${port}/api/v2/sms/${uuid}/recipients`, {
          headers: { 'x-api-key': customer.key },
        });
        status = ((await page.json()) as { data: { status: string }[] }).data[0]?.status;
        return status !== undefined && status !== 'pending';
      });
      assert.equal(status, 'success');
      assert.ok(Date.now() - started < Number(POLL_MS) / 2, 'final within half a poll');
    });

    it('a listener cut off connects again, looks at once, and hears the next wake-up', async () => {
      const name = `nok-wakes-test-${randomBytes(4).toString('hex')}`;
      const errors: Error[] = [];
      const listening = openDatabase(url, {
        directUrl: `${url}${url.includes('?') ? '&' : '?'}application_name=${name}`,
        onWakeError: (error) => errors.push(error),
      });
      const heard: WakeTopic[] = [];
      try {
        listening.wakes.listen(['dispatch', 'materialise'], (topic) => heard.push(topic));
        await waitFor('the first look', () => heard.length === 2);
        assert.deepEqual([...heard].sort(), ['dispatch', 'materialise']);

        heard.length = 0;
        h.db.database.wakes.notify('dispatch');
        await waitFor('a wake-up', () => heard.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(heard, ['dispatch'], 'only the topic notified');

        heard.length = 0;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          const cut = await admin.query(
            'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1',
            [name],
          );
          assert.equal(cut.rowCount, 1, 'the listening connection was found and cut');
        } finally {
          await admin.end();
        }
        await waitFor('the look after connecting again', () => heard.length === 2);
        assert.ok(errors.length > 0, 'the broken connection was reported');

        heard.length = 0;
        h.db.database.wakes.notify('materialise');
        await waitFor('a wake-up on the new connection', () => heard.includes('materialise'));
      } finally {
        await listening.close();
      }
    });
  });
}
