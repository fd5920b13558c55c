// `nok backup FILE`: an online copy of the SQLite database, consistent as of one moment, taken
// while another connection holds a write transaction open (as a running Nok would); refused for
// PostgreSQL, and never over an existing file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { runNok } from './nok-process.js';

for (const engine of testEngines()) {
  describe(`nok backup (${engine.name})`, () => {
    let h: Harness;
    let dir: string;

    before(async () => {
      h = await createHarness(engine);
      dir = mkdtempSync(join(tmpdir(), 'nok-backup-'));
    });
    after(async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    if (engine.name === 'postgres') {
      it('refuses PostgreSQL and names its own tools', async () => {
        const target = join(dir, 'pg.db');
        const ran = await runNok(h.db, ['backup', target]);
        assert.equal(ran.code, 1);
        assert.match(ran.stderr, /nok backup: .*SQLite.*pg_dump/);
        assert.equal(existsSync(target), false);
      });
      return;
    }

    it('copies the database while a write transaction is open, without it', async () => {
      const customer = await h.customer();
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'kept',
        msisdns: ['0812345678', '0812345679'],
      });
      // Another connection, mid-transaction: its row is not committed, so not in the copy.
      const writer = new Database(h.db.url);
      writer.exec('BEGIN IMMEDIATE');
      writer
        .prepare("UPDATE accounts SET name = 'uncommitted' WHERE id = ?")
        .run(customer.account.id);
      const target = join(dir, 'copy.db');
      try {
        const ran = await runNok(h.db, ['backup', target], {}, 60_000);
        assert.equal(ran.code, 0, ran.stderr);
        assert.match(ran.stdout, /^Backed up .* to .*copy\.db: \d+\.\d MB in \d+\.\d s\n$/);
      } finally {
        writer.exec('ROLLBACK');
        writer.close();
      }
      const copy = new Database(target, { readonly: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete');
        const message = copy.prepare('SELECT id FROM messages WHERE uuid = ?').get(uuid);
        assert.ok(message, 'the committed send is in the copy');
        const account = copy
          .prepare('SELECT name FROM accounts WHERE id = ?')
          .get(customer.account.id) as { name: string };
        assert.notEqual(account.name, 'uncommitted');
      } finally {
        copy.close();
      }
    });

    it('overwrites nothing, and says why', async () => {
      const target = join(dir, 'taken.db');
      writeFileSync(target, 'mine');
      const ran = await runNok(h.db, ['backup', target]);
      assert.equal(ran.code, 1);
      assert.match(
        ran.stderr,
        /taken\.db exists; nok backup writes a new file and overwrites none/,
      );
      const usage = await runNok(h.db, ['backup']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /Usage: nok backup FILE/);
    });
  });
}
