import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { consoleBuildProblem } from '../../scripts/console-build.mjs';
import { apiKeyPrefix } from '../../src/domain/accounts/api-key.js';
import type { Store } from '../../src/domain/store.js';
import { createStore } from '../../src/storage/store.js';
import { duplicateKeys } from '../support/duplicate-keys.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { runNok, spawnNok } from './nok-process.js';

const KEY_PATTERN = /nok_[a-z2-7]{12}_[A-Za-z0-9_-]{32}/;
const DEMO_CREDITS = 500;

interface Started {
  readonly child: ChildProcess;
  /** The customers' API. */
  readonly url: string;
  /** The operator endpoints. */
  readonly opsUrl: string;
  readonly opsPort: number;
  /** Everything printed on stdout up to the "nok started" log line. */
  readonly stdout: string;
  /** Everything printed on stdout so far. */
  output(): string;
}

/** The "nok started" log line, as JSON (stdout is a pipe) or as a readable line. */
const STARTED_LINE = {
  json: /"msg":"nok started"/,
  pretty:
    /^\d\d:\d\d:\d\d\.\d{3} INFO {2}nok started url=http:\/\/127\.0\.0\.1:\d+ opsUrl=http:\/\/127\.0\.0\.1:\d+ /m,
};

/** Every `nok start` spawned, from its spawn on: the suite stops what is still running. */
const running = new Set<ChildProcess>();

/**
 * Starts `nok start` and resolves once it logged "nok started", which comes after the demo
 * bootstrap, so its output is complete. Rejects if the process exits first.
 */
async function startNok(db: TestDatabase, logFormat: 'json' | 'pretty' = 'json'): Promise<Started> {
  const port = await freePort();
  const opsPort = await freePort();
  const child = spawnNok(db, ['start'], {
    NOK_HOST: '127.0.0.1',
    NOK_PORT: String(port),
    NOK_OPS_PORT: String(opsPort),
    NOK_LOG_LEVEL: 'info',
    // auto would be json too (stdout is a pipe); the tests name the format they read.
    NOK_LOG_FORMAT: logFormat,
    NOK_DEMO_CREDITS: String(DEMO_CREDITS),
    // The built-in SMSC on a free port; a receipt at once for every part.
    NOK_SMSC_PORT: '0',
    NOK_SMSC_OPTIONS: '{"preset":"happy"}',
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`nok start exited (${code}) before it started:\n${stdout}\n${stderr}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (STARTED_LINE[logFormat].test(stdout)) {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    opsUrl: `http://127.0.0.1:${opsPort}`,
    opsPort,
    stdout,
    output: () => stdout,
  };
}

/** SIGTERM by pid, then how the process ended: its exit code, or the signal that ended it. */
async function stopNok(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null)
    return child.exitCode ?? child.signalCode!;
  const exited = once(child, 'exit');
  process.kill(child.pid!, 'SIGTERM');
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  return code ?? signal!;
}

for (const engine of testEngines()) {
  describe(`nok start (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;

    before(async () => {
      // `nok start` here runs from source and serves the console from dist/console, which
      // `npm run build` (and npm start's prestart) makes; npm test builds it for this file.
      const problem = consoleBuildProblem();
      assert.equal(
        problem,
        null,
        `${problem}: run this test through npm test, which builds it, or npm run build:console`,
      );
      db = await engine.create();
      store = createStore(db.database.db);
    });
    after(async () => {
      for (const child of running) await stopNok(child);
      await db.drop();
    });

    // A start that never logs "nok started" fails at the timeout rather than hanging the run.
    it(
      'on an empty store creates a demo account and prints a key and a curl that send for real',
      { timeout: 60_000 },
      async () => {
        // Readable log lines, as on a terminal: the banner prints whole among them.
        const started = await startNok(db, 'pretty');
        const key = KEY_PATTERN.exec(started.stdout)?.[0];
        assert.ok(key, `no key printed:\n${started.stdout}`);
        assert.ok(
          started.stdout.includes(`curl -X POST ${started.url}/api/v2/sms/send`),
          started.stdout,
        );
        assert.ok(started.stdout.includes(`-H 'x-api-key: ${key}'`), started.stdout);
        assert.ok(started.stdout.includes('"sender":"NOKDEMO"'), started.stdout);
        assert.ok(started.stdout.includes(`${started.url}/docs`), started.stdout);

        const headers = { 'x-api-key': key, 'content-type': 'application/json' };
        const balance = await fetch(`${started.url}/api/v2/sms/credit/balance`, { headers });
        assert.equal(balance.status, 200);
        assert.deepEqual(await balance.json(), { balance: DEMO_CREDITS, creditsPerPart: 1 });

        // The body the printed curl sends.
        const body = /-d '(\{.*\})'/.exec(started.stdout)?.[1];
        assert.ok(body, started.stdout);
        const sent = await fetch(`${started.url}/api/v2/sms/send`, {
          method: 'POST',
          headers,
          body,
        });
        const answer = (await sent.json()) as { status: string; cost: number; balance: number };
        assert.equal(sent.status, 200, JSON.stringify(answer));
        assert.equal(answer.cost, 1);
        assert.equal(answer.balance, DEMO_CREDITS - 1);

        // Delivered for real: the built-in SMSC is the carrier, and its receipt comes back.
        const { uuid } = answer as unknown as { uuid: string };
        const deadline = Date.now() + 20_000;
        let message: { status: string; drSummary?: Record<string, number> } = { status: '' };
        // The receipt can be stored before the dispatcher releases the chunk that moves the
        // message to `sent`: wait for both.
        while (
          (message.status !== 'sent' || message.drSummary?.success !== 1) &&
          Date.now() < deadline
        ) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const response = await fetch(`${started.url}/api/v2/sms/${uuid}`, { headers });
          message = (await response.json()) as typeof message;
        }
        assert.equal(message.status, 'sent');
        assert.equal(message.drSummary?.success, 1, JSON.stringify(message));

        // What an operator sees, on the operator listener: Prometheus metrics and the status view.
        const metrics = await (await fetch(`${started.opsUrl}/metrics`)).text();
        assert.match(metrics, /^nok_accepted_recipients_total\{engine="\w+"\} 1$/m);
        assert.match(metrics, /^nok_submits_total\{carrier="builtin-smsc"\} 1$/m);
        assert.match(metrics, /^nok_receipts_total\{carrier="builtin-smsc",status="success"\} 1$/m);
        assert.match(metrics, /^nok_binds_up\{carrier="builtin-smsc"\} 2$/m);
        assert.match(metrics, /^nok_receipt_latency_seconds_count\{carrier="builtin-smsc"\} 1$/m);
        const status = (await (await fetch(`${started.opsUrl}/status`)).json()) as {
          carriers: { name: string; bindsUp: number }[];
          queueDepth: number;
        };
        assert.deepEqual(
          status.carriers.map((c) => [c.name, c.bindsUp]),
          [['builtin-smsc', 2]],
        );
        assert.equal(status.queueDepth, 0);
        // Not beside the customers' API; /health on both, for load balancers and operators.
        for (const path of ['/metrics', '/status']) {
          const onApi = await fetch(`${started.url}${path}`);
          assert.equal(onApi.status, 404, path);
          await onApi.arrayBuffer();
        }
        for (const base of [started.url, started.opsUrl]) {
          const health = await fetch(`${base}/health`);
          assert.deepEqual(await health.json(), { status: 'ok' }, base);
        }

        // The banner, between readable log lines and none of them JSON.
        const lines = started.stdout.split('\n');
        const banner = lines.indexOf('Its API key (shown only this once; it is stored hashed):');
        assert.ok(banner > 0, started.stdout);
        assert.match(lines[banner - 1]!, /^Demo account \d+ created with 500 credits/);
        assert.equal(lines[banner + 2], `  ${key}`);
        assert.ok(
          lines.every((line) => !line.startsWith('{')),
          started.stdout,
        );

        // The demo owner signs in to the console with the printed password.
        assert.ok(started.stdout.includes(`The console: ${started.url}/console/`), started.stdout);
        const password = /^ {2}password: (\S+)$/m.exec(started.stdout)?.[1];
        assert.ok(password && password.length >= 12, started.stdout);
        assert.match(started.stdout, /^ {2}email: {4}owner@demo\.invalid$/m);
        const first = await fetch(`${started.url}/console/api/session`);
        const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
        const { csrfToken } = (await first.json()) as { csrfToken: string };
        const signedIn = await fetch(`${started.url}/console/api/session`, {
          method: 'POST',
          headers: {
            cookie,
            'x-csrf-token': csrfToken,
            origin: started.url,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ email: 'owner@demo.invalid', password }),
        });
        const who = (await signedIn.json()) as { user: { role: string; accountId: number } };
        assert.equal(signedIn.status, 200, JSON.stringify(who));
        assert.equal(who.user.role, 'owner');

        // The console itself, as `npm start` serves it (its prestart builds it): the page and
        // the script it loads.
        const page = await fetch(`${started.url}/console/`);
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        const html = await page.text();
        assert.match(html, /<title>Nok console<\/title>/);
        const script = /<script type="module"[^>]* src="(\/console\/assets\/[^"]+\.js)"/.exec(
          html,
        )?.[1];
        assert.ok(script, html);
        const asset = await fetch(`${started.url}${script}`);
        assert.equal(asset.status, 200);
        assert.match(asset.headers.get('content-type') ?? '', /javascript/);
        await asset.arrayBuffer();

        const docs = await fetch(`${started.url}/docs`);
        assert.equal(docs.status, 200);
        await docs.arrayBuffer();

        assert.equal(await stopNok(started.child), 0);
        const record = await store.findApiKeyByPrefix(apiKeyPrefix(key)!);
        assert.deepEqual(record?.scopes, ['*']);
        const demo = await store.findAccount(record!.accountId);
        assert.equal(demo?.name, 'Demo');
        assert.equal(demo?.balance, DEMO_CREDITS - 1);
        assert.equal(await store.ledgerSum(demo!.id), DEMO_CREDITS - 1);
        const senders = await store.listVisibleSenders(demo!.id);
        assert.deepEqual(
          senders.map((s) => [s.name, s.status]),
          [['NOKDEMO', 'approved']],
        );
      },
    );

    it(
      'on a store that has an account prints no demo and creates nothing',
      { timeout: 60_000 },
      async () => {
        const accountsBefore = await store.countAccounts();
        assert.ok(accountsBefore > 0, 'the previous test left the demo account');
        const started = await startNok(db);
        assert.doesNotMatch(started.stdout, KEY_PATTERN);
        assert.doesNotMatch(started.stdout, /Demo account/);

        // `nok status` reads the operator listener.
        const status = await runNok(db, ['status'], { NOK_OPS_PORT: String(started.opsPort) });
        assert.equal(status.code, 0, status.stderr);
        const view = JSON.parse(status.stdout) as { roles: object; carriers: { name: string }[] };
        assert.deepEqual(view.roles, {
          api: true,
          scheduler: true,
          dispatcher: true,
          smsc: true,
          webhooks: true,
        });
        assert.deepEqual(
          view.carriers.map((c) => c.name),
          ['builtin-smsc'],
        );
        assert.equal(await stopNok(started.child), 0);
        assert.equal(await store.countAccounts(), accountsBefore);

        // JSON log lines from start to stop, each field once (the binds' among them).
        const lines = started
          .output()
          .split('\n')
          .filter((line) => line !== '');
        assert.ok(
          lines.some((line) => line.includes('"msg":"bind up"')),
          started.output(),
        );
        for (const line of lines) assert.deepEqual(duplicateKeys(line), [], line);
      },
    );
  });
}
