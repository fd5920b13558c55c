import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testEngines } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'packages/client/dist/cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The customers' command line (nok-sms, packages/client/src/cli.ts), built as it is shipped and
 * run as a process against a real Nok over loopback.
 */
describe('nok-sms, the customers’ command line', () => {
  let h: Harness;
  let c: Customer;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const built = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'packages/client/tsconfig.json'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(built.status, 0, built.stdout + built.stderr);
    h = await createHarness(testEngines()[0]!);
    c = await h.customer({ credits: 10_000 });
    const url = await h.app.listen({ host: '127.0.0.1', port: 0 });
    env = { ...process.env, NOK_URL: url, NOK_API_KEY: c.key };
  });
  after(() => h.close());

  const run = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...env, ...extra } },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('sends from arguments and from a file, and reads the message and its recipients back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nok-sms-'));
    const file = join(dir, 'numbers.txt');
    writeFileSync(file, '0812000001\n0812000002\r\n\n0812000003\n');
    const sent = await run([
      'send',
      '--sender',
      c.sender,
      '--file',
      file,
      '--to',
      '0812000004',
      '--content',
      'Hi',
      '--json',
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    const answer = JSON.parse(sent.stdout) as { uuid: string; recipients: { charged: number } };
    assert.equal(answer.recipients.charged, 4);

    const human = await run(['message', answer.uuid]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`^${answer.uuid} `));

    const csv = await run(['recipients', answer.uuid, '--csv']);
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csv.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'seq,msisdn,status,updatedAt');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',')[1]),
      // --to's numbers, then the file's, in order.
      ['66812000004', '66812000001', '66812000002', '66812000003'],
    );
    const ndjson = await run(['recipients', answer.uuid, '--ndjson', '--status', 'pending']);
    assert.equal(ndjson.stdout.trimEnd().split('\n').length, 4);

    const listed = await run(['messages', '--json']);
    assert.ok(
      (JSON.parse(listed.stdout) as { uuid: string }[]).some((m) => m.uuid === answer.uuid),
    );
  });

  it('prices a dry run without charging, and shows the balance', async () => {
    const before = await run(['balance', '--json']);
    const dry = await run([
      'send',
      '--sender',
      c.sender,
      '--to',
      '0812000005',
      '--content',
      'Hi',
      '--dry-run',
    ]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^would cost 1 credits for 1 recipients/);
    assert.deepEqual(await run(['balance', '--json']), before);
    assert.match((await run(['balance'])).stdout, /^\d+ credits\n$/);
  });

  it('cancels a scheduled send, and exits 1 with Nok’s code when asked again', async () => {
    const at = new Date(h.clock.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const sent = await run([
      'send',
      '--sender',
      c.sender,
      '--to',
      '0812000006',
      '--content',
      'Later',
      '--schedule',
      at,
      '--json',
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    const { uuid } = JSON.parse(sent.stdout) as { uuid: string };
    const cancelled = await run(['cancel', uuid]);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, /cancelled; 1 credits refunded/);
    const again = await run(['cancel', uuid]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^nok-sms: ALREADY_CANCELLED: .*\(request \S+\)\n$/);
  });

  it('waits with --wait until the message is done with, here cancelled meanwhile', async () => {
    const at = new Date(h.clock.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const waiting = spawn(
      process.execPath,
      [
        BIN,
        'send',
        '--sender',
        c.sender,
        '--to',
        '0812000007',
        '--content',
        'Wait',
        '--schedule',
        at,
        '--wait',
      ],
      { env },
    );
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => waiting.on('exit', resolve));
    const uuid = await new Promise<string>((resolve) =>
      waiting.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /^([0-9a-f-]{36}) /.exec(stdout);
        if (found) resolve(found[1]!);
      }),
    );
    const cancelled = await h.request({
      method: 'POST',
      url: `/api/v2/sms/${uuid}/cancel`,
      key: c.key,
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(await exited, 0);
    assert.match(stdout, new RegExp(`\\n${uuid}  \\S+  cancelled\\n`));
    assert.doesNotMatch(stdout, /\[#*\.*\]/, 'no progress bar when not a terminal');
  });

  it('exits 2 on a mistake in the command line, and 3 when Nok cannot be reached', async () => {
    for (const args of [['send', '--to', '0812000001'], ['frobnicate'], ['balance', '--bogus']]) {
      const result = await run(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^nok-sms: /);
    }
    const port = await freePort();
    const away = await run(['balance'], { NOK_URL: `http://127.0.0.1:${port}` });
    assert.equal(away.code, 3, away.stderr);
  });

  it('listens for webhooks, printing those signed with the secret and refusing the others', async () => {
    const key = Buffer.from('a webhook secret of 32 bytes....');
    const port = await freePort();
    const listener = spawn(
      process.execPath,
      [
        BIN,
        'listen',
        '--port',
        String(port),
        '--secret',
        `whsec_${key.toString('base64')}`,
        '--json',
      ],
      { env },
    );
    try {
      let stdout = '';
      listener.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise<void>((resolve) =>
        listener.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        }),
      );
      const post = async (body: string, signedBody = body) => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = createHmac('sha256', key)
          .update(`msg_1.${timestamp}.${signedBody}`)
          .digest('base64');
        const response = await fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          headers: {
            'webhook-id': 'msg_1',
            'webhook-timestamp': timestamp,
            'webhook-signature': `v1,${signature}`,
          },
          body,
        });
        return response.status;
      };
      const event = JSON.stringify({ type: 'message.completed', data: { uuid: 'u' } });
      assert.equal(await post(event), 204);
      assert.equal(await post(event.replace('u', 'v'), event), 400);
      assert.deepEqual(JSON.parse(stdout.trim()), { id: 'msg_1', event: JSON.parse(event) });
    } finally {
      listener.kill();
    }
  });
});
