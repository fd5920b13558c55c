// The export of a message's recipients, at 2,000,000 rows, on one engine
// (NOK_BENCH_ENGINE=sqlite|postgres):
//
//  1. a 2,000,000-number message is sent through POST /api/v2/sms/send (the one send path) and
//     its recipient rows are materialised by the server's scheduler;
//  2. GET /console/api/messages/{uuid}/recipients.csv over real HTTP with an owner's session
//     cookie, the client counting bytes and lines as they arrive (nothing kept): rows/s, the
//     server's peak RSS (VmHWM, reset just before) and the client process's peak RSS;
//  3. the same with `?status=blocked` (100 rows among 2,000,000): the filtered export;
//  4. GET /api/v2/sms/{uuid}/recipients/export with the customer's API key, as CSV and as
//     NDJSON (the same streaming use case, through /api/v2).
//
// Nok runs in a child process (support/nok-server.ts), so its RSS is its own. Run alone:
//
//   node --import tsx bench/export-recipients.bench.ts
//   NOK_BENCH_ENGINE=postgres NOK_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --import tsx bench/export-recipients.bench.ts
import http from 'node:http';
import { startSession } from '../src/domain/users/sessions.js';
import { openDatabase } from '../src/storage/open-database.js';
import { createStore } from '../src/storage/store.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { BENCH_OWNER } from './support/bench-owner.js';
import { HttpClient } from './support/http-client.js';
import { startNokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { buildSendBody } from './support/send-body.js';

const BENCH = 'export-recipients';
const NUMBER_COUNT = Number(process.env.NOK_BENCH_NUMBERS ?? 2_000_000);
const BLOCKED_COUNT = 100;
const MATERIALISE_TIMEOUT_MS = 15 * 60_000;
const MB = 1024 * 1024;

const { engine, pgUrl } = benchEngine();
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

function figure(metric: string, value: number, unit: 's' | 'MB' | 'rows/s', note?: string) {
  record({ bench: BENCH, engine, metric, value, unit, ...(note ? { note } : {}) });
}

/**
 * A signed-in session of the account's owner (seeded by support/nok-server.ts as BENCH_OWNER),
 * written through the store.
 */
async function ownerSession(databaseUrl: string, accountId: number) {
  // The bench's own connection: a PostgreSQL URL carries the schema as its search_path.
  const database = openDatabase(databaseUrl);
  try {
    const store = createStore(database.db);
    const user = await store.findUserByEmail(BENCH_OWNER.email);
    if (!user || user.accountId !== accountId) {
      throw new Error(`the seeded owner ${BENCH_OWNER.email} of account ${accountId} is missing`);
    }
    const { id } = await startSession(store, {
      userId: user.id,
      ip: '127.0.0.1',
      nowMs: Date.now(),
    });
    return `nok_session=${id}`;
  } finally {
    await database.close();
  }
}

interface Streamed {
  readonly seconds: number;
  readonly bytes: number;
  readonly lines: number;
  readonly status: number;
  readonly clientPeakRssBytes: number;
}

/** Streams one GET, counting bytes and line ends as they come; samples this process's RSS. */
function download(url: string, headers: Record<string, string>): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const started = nowMs();
    let peak = process.memoryUsage.rss();
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 20);
    const request = http.get(url, { headers }, (response) => {
      let bytes = 0;
      let lines = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      response.on('end', () => {
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage.rss());
        resolve({
          seconds: (nowMs() - started) / 1000,
          bytes,
          lines,
          status: response.statusCode ?? 0,
          clientPeakRssBytes: peak,
        });
      });
      response.on('error', reject);
    });
    request.on('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
  });
}

async function main(): Promise<void> {
  console.log(`${BENCH} (${engine}): ${machineCaveat()}`);
  const database = await createBenchDatabase(engine, pgUrl);
  const server = await startNokServer({ NOK_DATABASE_URL: database.url });
  try {
    const random = seededRandom(42);
    const blocked = Array.from(
      { length: BLOCKED_COUNT },
      (_, i) => `66${String(900_000_000 + i * 7919)}`,
    );
    const customer = await server.seed(NUMBER_COUNT * 2, blocked);
    const { body } = buildSendBody(NUMBER_COUNT, customer.sender, blocked, random);
    const answer = await new HttpClient(server.url, customer.key).post('/api/v2/sms/send', body);
    if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body.toString()}`);
    const { uuid, recipients } = JSON.parse(answer.body.toString()) as {
      uuid: string;
      recipients: { unique: number; blocked: number };
    };
    const total = recipients.unique;
    const startedMs = nowMs();
    for (;;) {
      const progress = await database.progress(uuid);
      if (progress.materialisedUpto >= progress.recipientTotal) break;
      if (nowMs() - startedMs > MATERIALISE_TIMEOUT_MS)
        throw new Error('materialisation timed out');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(
      `  seeded: ${total} recipients (${recipients.blocked} blocked), rows materialised in ${((nowMs() - startedMs) / 1000).toFixed(1)} s`,
    );
    const cookie = await ownerSession(database.url, customer.accountId);

    const consoleCsv = `${server.url}/console/api/messages/${uuid}/recipients.csv`;
    const apiExport = `${server.url}/api/v2/sms/${uuid}/recipients/export`;
    const asOwner = { cookie };
    const withKey = { 'x-api-key': customer.key };
    /** Name, URL, headers, rows expected, lines before the rows (CSV's header). */
    const exports: [string, string, Record<string, string>, number, number][] = [
      ['all', consoleCsv, asOwner, total, 1],
      ['status=blocked', `${consoleCsv}?status=blocked`, asOwner, recipients.blocked, 1],
      ['api csv', apiExport, withKey, total, 1],
      ['api ndjson', `${apiExport}?format=ndjson`, withKey, total, 0],
    ];
    for (const [name, url, headers, expected, headerLines] of exports) {
      server.resetPeakRss();
      const idleMb = server.rssBytes() / MB;
      const clientIdleMb = process.memoryUsage.rss() / MB;
      const streamed = await download(url, headers);
      if (streamed.status !== 200) throw new Error(`export → ${streamed.status}`);
      const rows = streamed.lines - headerLines;
      if (rows !== expected) throw new Error(`export ${name}: ${rows} rows, expected ${expected}`);
      figure(
        `export ${name}: ${rows} rows`,
        streamed.seconds,
        's',
        `${(streamed.bytes / MB).toFixed(1)} MB`,
      );
      figure(`export ${name}: rows/s`, Math.round(rows / streamed.seconds), 'rows/s');
      figure(
        `export ${name}: server peak RSS`,
        server.peakRssBytes() / MB,
        'MB',
        `RSS before the request ${idleMb.toFixed(0)} MB`,
      );
      figure(
        `export ${name}: client peak RSS`,
        streamed.clientPeakRssBytes / MB,
        'MB',
        `RSS before the request ${clientIdleMb.toFixed(0)} MB`,
      );
    }
  } finally {
    await server.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
