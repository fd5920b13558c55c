import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUILT_NOK, serverBuildProblem } from '../../scripts/server-build.mjs';
import { runAdmin } from '../../src/cli/admin.js';
import { loadConfig } from '../../src/config.js';
import type { TestDatabase } from '../support/engines.js';

/** The repository root: the built `nok` is spawned relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `node <args>` for the `nok` command: the built one, `dist/src/cli/nok.js`, whose stack traces
 * name the sources through their source maps. It starts in a fraction of the time loading
 * src/cli/nok.ts through tsx takes (which compiles the whole source in each child). A build older
 * than src/ is refused rather than run: `npm test` builds it first (`npm run build:server`).
 */
function nokArgs(): string[] {
  builtProblem ??= { problem: serverBuildProblem(REPO_ROOT) };
  assert.equal(
    builtProblem.problem,
    null,
    `${builtProblem.problem}: run this test through npm test, which builds it, or npm run build:server`,
  );
  return ['--enable-source-maps', BUILT_NOK];
}

let builtProblem: { problem: string | null } | undefined;

/**
 * NOK_DATABASE_URL for a child process reaching the same database as the test: on PostgreSQL
 * the test's schema travels in the connection string (libpq `options`, honoured by pg).
 */
export function databaseUrlFor(db: TestDatabase): string {
  if (!db.schema) return db.url;
  const separator = db.url.includes('?') ? '&' : '?';
  return `${db.url}${separator}options=${encodeURIComponent(`-c search_path=${db.schema}`)}`;
}

export interface NokResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `nok <args>` to completion against a test database or a NOK_DATABASE_URL. A process
 * still running after `timeoutMs` is killed (SIGKILL: a running `nok` takes SIGTERM as a stop
 * request) and the promise rejects.
 */
export function runNok(
  db: TestDatabase | string,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 0,
): Promise<NokResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nokArgs(), ...args],
      {
        cwd: REPO_ROOT,
        env: nokEnv(db, env),
        maxBuffer: 16 * 1024 * 1024,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(error);
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** Starts a long-running `nok <args>` (e.g. `start`); the caller stops it by pid. */
export function spawnNok(
  db: TestDatabase | string,
  args: readonly string[],
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(process.execPath, [...nokArgs(), ...args], {
    cwd: REPO_ROOT,
    env: nokEnv(db, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Spawns a long-running `nok <args>` and resolves once its output (stdout and stderr) matches
 * `ready`, e.g. its "nok started" log line; rejects if it exits first. The caller stops it.
 */
export async function startNok(
  db: TestDatabase | string,
  args: readonly string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output(): string }> {
  const child = spawnNok(db, args, env);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`nok ${args.join(' ')} exited (${code}):\n${output}`));
    child.once('exit', onExit);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        child.off('exit', onExit);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
  });
  return { child, output: () => output };
}

function nokEnv(db: TestDatabase | string, env: Record<string, string>): NodeJS.ProcessEnv {
  const url = typeof db === 'string' ? db : databaseUrlFor(db);
  return {
    ...process.env,
    NOK_LOG_LEVEL: 'silent',
    // A free port for the operator endpoints unless the test names one: two processes on the
    // default port would refuse to start.
    NOK_OPS_PORT: '0',
    NOK_DATABASE_URL: url,
    ...env,
  };
}

/**
 * Runs `nok admin <args>` in this process: the same `runAdmin` the binary calls, with its
 * output captured. The command-line tests spawn the real binary; the per-command tests use
 * this, because each spawn costs a process start and loading the whole program.
 */
export function runAdminInProcess(
  db: TestDatabase | string,
  args: readonly string[],
): Promise<NokResult> {
  // One at a time: each call opens its own SQLite connection in this one thread, and a call
  // blocked on busy_timeout would block the very call holding the lock.
  const run = inProcessQueue.then(() => adminInProcess(db, args));
  inProcessQueue = run.catch(() => undefined);
  return run;
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

async function adminInProcess(
  db: TestDatabase | string,
  args: readonly string[],
): Promise<NokResult> {
  const url = typeof db === 'string' ? db : databaseUrlFor(db);
  const config = loadConfig({ NOK_DATABASE_URL: url, NOK_LOG_LEVEL: 'silent' });
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(config, [...args], {
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
  });
  return { code, stdout, stderr };
}

/** The single JSON object a `--json` command printed, after checking it printed only that. */
export function jsonOf(result: NokResult): Record<string, unknown> {
  assert.equal(result.code, 0, `exit ${result.code}: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `expected one line of JSON, got:\n${result.stdout}`);
  const parsed: unknown = JSON.parse(lines[0] as string);
  assert.ok(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed));
  return parsed as Record<string, unknown>;
}

export function assertRefused(result: NokResult, message: RegExp): void {
  assert.equal(
    result.code,
    1,
    `expected exit 1, got ${result.code}: ${result.stdout}${result.stderr}`,
  );
  assert.equal(result.stdout, '');
  assert.match(result.stderr, message);
}
