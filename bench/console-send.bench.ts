// The console's send path against /api/v2's, at 2,000,000 numbers, in the same run on one engine
// (NOK_BENCH_ENGINE=sqlite|postgres):
//
//  - /api/v2: seconds from request start to the 200 of POST /api/v2/sms/send with the numbers
//    in its JSON body (an API key);
//  - console: seconds from the upload's first byte to the send's 200: POST
//    /console/api/recipient-lists with the same numbers as a file of lines, streamed, then POST
//    /console/api/messages naming the list (a cookie session and its CSRF token);
//  - console, list read back: the same, with two small lists uploaded between the upload and the
//    send (untimed), so the send finds the big list gone from the process's few decoded ones
//    and reads it from the database, as an api process that did not receive the upload does
//    (ADR 0034);
//  - the ratio console / api (target ≤ 1.5) and the server's peak RSS during each (≤ 600 MB).
//
// Each path runs twice, in the order api, console, read back, console, read back, api, and every
// message is left to materialise before the next request, so none pays for another's background
// work. Nok
// runs in a child process (support/nok-server.ts). Run through `npm run bench -- console-send`,
// or alone:  node --import tsx bench/console-send.bench.ts
import { benchEngine, createBenchDatabase, type BenchDatabase } from './support/bench-database.js';
import { ConsoleClient } from './support/console-client.js';
import { HttpClient } from './support/http-client.js';
import { startNokServer, type NokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { buildSendBody, randomMsisdns } from './support/send-body.js';
import { seededRandom } from '../test/support/seeded-random.js';

const BENCH = 'console-send';
const NUMBER_COUNT = Number(process.env.NOK_BENCH_NUMBERS ?? 2_000_000);
const BLOCKED_COUNT = 100;
const RATIO_TARGET = 1.5;
const RSS_TARGET_MB = 600;
const MB = 1024 * 1024;
const POLL_MS = 200;
const MATERIALISE_TIMEOUT_MS = 15 * 60_000;
const COUNT_LABEL = NUMBER_COUNT >= 1e6 ? `${NUMBER_COUNT / 1e6}M` : `${NUMBER_COUNT / 1e3}k`;
const CONTENT = 'Flash sale today only: 20% off everything';

const { engine, pgUrl } = benchEngine();

/** The numbers as a file of lines, `0XXXXXXXXX` each, as a customer exports them. */
function linesFile(suffixes: Uint32Array): Buffer {
  const file = Buffer.allocUnsafe(suffixes.length * 11);
  let at = 0;
  for (let i = 0; i < suffixes.length; i++) {
    file[at++] = 0x30;
    let suffix = suffixes[i]!;
    for (let d = 8; d >= 0; d--) {
      file[at + d] = 0x30 + (suffix % 10);
      suffix = Math.floor(suffix / 10);
    }
    at += 9;
    file[at++] = 0x0a;
  }
  return file;
}

async function materialised(database: BenchDatabase, uuid: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const progress = await database.progress(uuid);
    if (progress.materialisedUpto >= progress.recipientTotal) return;
    if (Date.now() - started > MATERIALISE_TIMEOUT_MS) throw new Error('materialisation timed out');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface Run {
  readonly seconds: number;
  readonly peakMb: number;
  readonly uuid: string;
  readonly note: string;
}

async function main(): Promise<void> {
  console.log(
    `\n== ${BENCH} (${engine}): ${NUMBER_COUNT.toLocaleString('en')} numbers per send ==`,
  );
  console.log(machineCaveat());
  const database = await createBenchDatabase(engine, pgUrl);
  let server: NokServer | undefined;
  let api: HttpClient | undefined;
  let consoleClient: ConsoleClient | undefined;
  try {
    server = await startNokServer({ NOK_DATABASE_URL: database.url });
    const random = seededRandom(20_000_028);
    const blocked = randomMsisdns(BLOCKED_COUNT, random);
    const customer = await server.seed(10 * 4 * NUMBER_COUNT, blocked);
    const { body: jsonBody, suffixes } = buildSendBody(
      NUMBER_COUNT,
      customer.sender,
      blocked,
      random,
    );
    const file = linesFile(suffixes);
    const smallFile = Buffer.from('0812345678\n');
    console.log(
      `Nok pid ${server.pid} at ${server.url}; idle RSS ${(server.rssBytes() / MB).toFixed(0)} MB; ` +
        `JSON body ${(jsonBody.length / MB).toFixed(1)} MB, file ${(file.length / MB).toFixed(1)} MB`,
    );
    api = new HttpClient(server.url, customer.key);
    consoleClient = new ConsoleClient(server.url);
    await consoleClient.signIn();
    const nok = server;
    const apiClient = api;
    const web = consoleClient;

    const viaApi = async (): Promise<Run> => {
      nok.resetPeakRss();
      const answer = await apiClient.post('/api/v2/sms/send', jsonBody);
      const peakMb = nok.peakRssBytes() / MB;
      if (answer.status !== 200)
        throw new Error(`send → ${answer.status} ${answer.body.toString()}`);
      const sent = JSON.parse(answer.body.toString()) as {
        uuid: string;
        recipients: { charged: number };
      };
      return {
        seconds: answer.seconds,
        peakMb,
        uuid: sent.uuid,
        note: `charged ${sent.recipients.charged}`,
      };
    };

    const viaConsole = async (readBack: boolean): Promise<Run> => {
      nok.resetPeakRss();
      const uploaded = await web.post('/console/api/recipient-lists', file, 'text/plain');
      if (uploaded.status !== 201) throw new Error(`upload → ${uploaded.status} ${uploaded.body}`);
      const list = JSON.parse(uploaded.body) as { id: string; valid: number };
      for (let i = 0; readBack && i < 2; i++) {
        const small = await web.post('/console/api/recipient-lists', smallFile, 'text/plain');
        if (small.status !== 201) throw new Error(`upload → ${small.status} ${small.body}`);
      }
      const sendBody = Buffer.from(
        JSON.stringify({ sender: customer.sender, content: CONTENT, recipientListId: list.id }),
      );
      const sent = await web.post('/console/api/messages', sendBody, 'application/json');
      const peakMb = nok.peakRssBytes() / MB;
      if (sent.status !== 200) throw new Error(`send → ${sent.status} ${sent.body}`);
      const accepted = JSON.parse(sent.body) as { uuid: string; recipients: { charged: number } };
      return {
        seconds: uploaded.seconds + sent.seconds,
        peakMb,
        uuid: accepted.uuid,
        note: `upload ${uploaded.seconds.toFixed(3)} s + send ${sent.seconds.toFixed(3)} s; charged ${accepted.recipients.charged}`,
      };
    };

    const runs: Record<'api' | 'console' | 'readBack', Run[]> = {
      api: [],
      console: [],
      readBack: [],
    };
    const labels = {
      api: '/api/v2 JSON body',
      console: 'console upload + send',
      readBack: 'console, list read back',
    };
    const order = ['api', 'console', 'readBack', 'console', 'readBack', 'api'] as const;
    for (const path of order) {
      const run = path === 'api' ? await viaApi() : await viaConsole(path === 'readBack');
      runs[path].push(run);
      const n = runs[path].length;
      const label = labels[path];
      record({
        bench: BENCH,
        engine,
        metric: `${label}: accept ${COUNT_LABEL}, run ${n}`,
        value: run.seconds,
        unit: 's',
        note: run.note,
      });
      record({
        bench: BENCH,
        engine,
        metric: `${label}: peak RSS, run ${n}`,
        value: run.peakMb,
        unit: 'MB',
        target: `≤ ${RSS_TARGET_MB} MB`,
        met: run.peakMb <= RSS_TARGET_MB,
      });
      await materialised(database, run.uuid);
    }
    const best = (list: Run[]) => Math.min(...list.map((run) => run.seconds));
    for (const path of ['console', 'readBack'] as const) {
      const ratio = best(runs[path]) / best(runs.api);
      record({
        bench: BENCH,
        engine,
        metric: `${path === 'console' ? 'console' : 'read back'} / api, best of 2 each`,
        value: ratio,
        unit: '×',
        target: `≤ ${RATIO_TARGET} ×`,
        met: ratio <= RATIO_TARGET,
        note: `${best(runs[path]).toFixed(3)} s / ${best(runs.api).toFixed(3)} s`,
      });
    }
  } finally {
    api?.close();
    consoleClient?.close();
    await server?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
