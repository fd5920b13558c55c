// Every role and command leaves promptly: a command within a second of printing its result, a
// role within a second of SIGTERM when it has nothing in flight. A rolling restart pays each
// process's exit; before this, `nok migrate` and an idle `nok api` on PostgreSQL lingered about
// ten seconds on the pool's idle connections.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { startSmsc, type RunningSmsc } from '../../src/smsc/start-smsc.js';
import { writeSimCarriersFile } from '../support/carriers-file.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { spawnNok } from './nok-process.js';

/** The bound the issue sets; the exits measured here take some tens of milliseconds. */
const PROMPT_MS = 1_000;

interface Ran {
  readonly code: number | null;
  readonly output: string;
  /** From the first line the test waited for to the process's exit. */
  readonly lingeredMs: number;
}

/**
 * Spawns `nok <args>`, waits for `ready` on stdout, then (with `sigterm`) sends SIGTERM, and
 * measures from that moment to the exit.
 */
async function run(
  db: TestDatabase,
  args: readonly string[],
  ready: RegExp,
  { env = {}, sigterm = false }: { env?: Record<string, string>; sigterm?: boolean } = {},
): Promise<Ran> {
  const child: ChildProcess = spawnNok(db, args, {
    NOK_HOST: '127.0.0.1',
    NOK_PORT: '0',
    NOK_LOG_LEVEL: 'info',
    NOK_LOG_FORMAT: 'json',
    ...env,
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const readyAt = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nok ${args.join(' ')} never printed ${ready}:\n${output}`));
    }, 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(performance.now());
      }
    });
  });
  const from = sigterm ? (process.kill(child.pid!, 'SIGTERM'), performance.now()) : readyAt;
  const backstop = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await exited;
  clearTimeout(backstop);
  return { code, output, lingeredMs: performance.now() - from };
}

function assertPrompt(ran: Ran, what: string): void {
  assert.equal(ran.code, 0, `${what} exited ${ran.code}:\n${ran.output}`);
  assert.ok(
    ran.lingeredMs < PROMPT_MS,
    `${what} took ${Math.round(ran.lingeredMs)} ms to exit (at most ${PROMPT_MS})`,
  );
}

const STARTED = /"msg":"nok started"/;

for (const engine of testEngines()) {
  describe(`prompt exits (${engine.name})`, () => {
    let db: TestDatabase;
    let smsc: RunningSmsc;
    let dir: string;
    let carriersFile: string;

    before(async () => {
      db = await engine.create();
      smsc = await startSmsc({ preset: 'happy' });
      dir = mkdtempSync(join(tmpdir(), 'nok-exits-'));
      carriersFile = writeSimCarriersFile(dir, smsc, { binds: 2 });
    });
    after(async () => {
      await smsc.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('nok migrate exits within a second of printing its result', async () => {
      assertPrompt(await run(db, ['migrate'], /Already up to date|Applied migrations/), 'migrate');
    });

    it('an operator command exits within a second of printing its result', async () => {
      const ran = await run(db, ['admin', 'webhook', 'list', '--json'], /\n/);
      assertPrompt(ran, 'admin webhook list');
    });

    for (const role of ['api', 'scheduler', 'start'] as const) {
      it(`an idle nok ${role} exits within a second of SIGTERM`, async () => {
        const env: Record<string, string> =
          role === 'start' ? { NOK_SMSC_PORT: '0', NOK_DEMO_CREDITS: '0' } : {};
        assertPrompt(await run(db, [role], STARTED, { env, sigterm: true }), role);
      });
    }

    it('a busy nok api, a request of it never ending, exits at the end of NOK_DRAIN_MS', async () => {
      const port = await freePort();
      const drainMs = 500;
      const child = spawnNok(db, ['api'], {
        NOK_HOST: '127.0.0.1',
        NOK_PORT: String(port),
        NOK_LOG_LEVEL: 'info',
        NOK_LOG_FORMAT: 'json',
        NOK_DRAIN_MS: String(drainMs),
      });
      const exited = once(child, 'exit') as Promise<[number | null]>;
      let output = '';
      await new Promise<void>((resolve) =>
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (STARTED.test(output)) resolve();
        }),
      );
      // A send whose body never comes whole: the request stays in flight.
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'POST /api/v2/sms/send HTTP/1.1\r\nhost: nok\r\ncontent-type: application/json\r\n' +
          'content-length: 1000\r\n\r\n{"msisdns":[',
      );
      socket.on('error', () => undefined);
      // Read what comes (a 401 for the missing key), so that the close is seen.
      socket.resume();
      const closed = once(socket, 'close');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const from = performance.now();
      process.kill(child.pid!, 'SIGTERM');
      const backstop = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const [code] = await exited;
      clearTimeout(backstop);
      const tookMs = performance.now() - from;
      await closed;
      assert.equal(code, 0, output);
      assert.ok(tookMs >= drainMs - 50, `exited after ${Math.round(tookMs)} ms, before the drain`);
      assert.ok(
        tookMs < drainMs + PROMPT_MS,
        `exited ${Math.round(tookMs)} ms after SIGTERM (drain ${drainMs} ms)`,
      );
      assert.match(output, /cutting them/, 'the cut is logged');
    });

    it('an idle nok dispatcher, bound to its carrier, exits within a second of SIGTERM', async () => {
      const ran = await run(db, ['dispatcher'], /"msg":"bind up"[^\n]*\n[^]*"msg":"bind up"/, {
        env: { NOK_CARRIERS_FILE: carriersFile },
        sigterm: true,
      });
      assertPrompt(ran, 'dispatcher');
      assert.match(ran.output, /"reason":"local-unbind"/, 'its binds were closed with an unbind');
    });
  });
}
