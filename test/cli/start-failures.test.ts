import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runNok, type NokResult } from './nok-process.js';

/**
 * Long enough for a start that fails, even the first one of a loaded machine (which compiles the
 * whole source through tsx: it once took over 30 s beside three browser suites); a start that
 * hangs instead is killed and fails the test.
 */
const EXIT_WITHIN_MS = 120_000;

/** `nok start` on a fresh SQLite file of its own, the built-in SMSC on a free port. */
function start(databaseUrl: string, env: Record<string, string>): Promise<NokResult> {
  return runNok(
    databaseUrl,
    ['start'],
    { NOK_HOST: '127.0.0.1', NOK_PORT: '0', NOK_SMSC_PORT: '0', ...env },
    EXIT_WITHIN_MS,
  );
}

/** Exit code 1 and exactly one line on stderr, which it returns. */
function failedWithOneLine(result: NokResult): string {
  assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, result.stderr);
  return lines[0]!;
}

describe('a failed start', () => {
  let dir: string;
  let taken: Server;
  let takenPort: number;
  let database: string;
  let n = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nok-start-failures-'));
    taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    takenPort = (taken.address() as { port: number }).port;
  });
  after(async () => {
    taken.close();
    await once(taken, 'close');
    rmSync(dir, { recursive: true, force: true });
  });
  // Each start on a store of its own, so that no test depends on another's demo account.
  const freshDatabase = () => (database = join(dir, `nok-${++n}.db`));

  it('says the API port is taken, and which settings name it, and exits', async () => {
    const line = failedWithOneLine(await start(freshDatabase(), { NOK_PORT: String(takenPort) }));
    assert.match(
      line,
      new RegExp(
        `^nok start: Cannot listen for the API on 127\\.0\\.0\\.1:${takenPort} \\(NOK_HOST, NOK_PORT\\): .*EADDRINUSE`,
      ),
    );
  });

  it('says the operator port is taken, and which settings name it, and exits', async () => {
    const line = failedWithOneLine(
      await start(freshDatabase(), { NOK_OPS_PORT: String(takenPort) }),
    );
    assert.match(
      line,
      new RegExp(
        `^nok start: Cannot listen for the operator endpoints on 127\\.0\\.0\\.1:${takenPort} \\(NOK_OPS_HOST, NOK_OPS_PORT\\): .*EADDRINUSE`,
      ),
    );
  });

  it('says the database cannot be reached, without its password', async () => {
    const line = failedWithOneLine(await start('postgres://nok:hunter2@127.0.0.1:1/nok', {}));
    assert.match(
      line,
      /^nok start: Cannot open the database postgres:\/\/nok:\*\*\*@127\.0\.0\.1:1\/nok \(NOK_DATABASE_URL\): .*ECONNREFUSED/,
    );
    assert.doesNotMatch(line, /hunter2/);
  });

  it('says so in one line when nok migrate or nok admin cannot reach the database', async () => {
    const url = 'postgres://nok:hunter2@127.0.0.1:1/nok';
    for (const [command, args] of [
      ['migrate', ['migrate']],
      ['admin account create', ['admin', 'account', 'create', '--name', 'x']],
    ] as const) {
      const line = failedWithOneLine(await runNok(url, args, {}, EXIT_WITHIN_MS));
      assert.match(
        line,
        new RegExp(
          `^nok ${command}: Cannot open the database postgres://nok:\\*\\*\\*@127\\.0\\.0\\.1:1/nok \\(NOK_DATABASE_URL\\): .*ECONNREFUSED`,
        ),
      );
      assert.doesNotMatch(line, /hunter2/);
    }
  });

  it('says the carrier file cannot be read', async () => {
    const line = failedWithOneLine(
      await start(freshDatabase(), { NOK_CARRIERS_FILE: join(dir, 'missing.json') }),
    );
    assert.match(
      line,
      /^nok start: Cannot read the carrier file .*missing\.json .*ENOENT.*NOK_CARRIERS_FILE/,
    );
  });

  it('names a bad setting before it touches the database', async () => {
    const line = failedWithOneLine(
      await start(freshDatabase(), { NOK_SMSC_OPTIONS: '{"preset":"fast"}' }),
    );
    assert.match(line, /^nok start: Invalid settings; .*NOK_SMSC_OPTIONS: SMSC options: preset/);
    assert.equal(existsSync(database), false);
  });

  it('names a misspelt setting and the setting it was meant to be, and does not start', async () => {
    const line = failedWithOneLine(await start(freshDatabase(), { NOK_SMSC_PROT: '2776' }));
    assert.match(
      line,
      /^nok start: Invalid settings; .*NOK_SMSC_PROT: not a Nok setting; did you mean NOK_SMSC_PORT\?/,
    );
    assert.equal(existsSync(database), false);
  });

  it('prints an unexpected failure with its stack, so that it can be acted on, and exits', async () => {
    // A store Nok did not make as it is: migrated, then a table gone. Making the demo account
    // meets it, which no start step explains.
    const path = freshDatabase();
    assert.equal((await runNok(path, ['migrate'])).code, 0);
    const damaged = new Database(path);
    damaged.exec('DROP TABLE audit_events');
    damaged.close();

    const result = await start(path, {});
    assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
    const [first, ...rest] = result.stderr.trimEnd().split('\n');
    assert.equal(first, 'nok start: SqliteError: no such table: audit_events');
    assert.ok(rest.length > 0, result.stderr);
    for (const line of rest) assert.match(line, /^\s+at /, result.stderr);
    assert.ok(
      rest.some((line) => /src\/domain\/audit\/record-audit\.ts:\d+/.test(line)),
      `the frames name where Nok met it:\n${result.stderr}`,
    );
  });
});
