// The staged accept under a real load, on one engine (NOK_BENCH_ENGINE=sqlite|postgres):
//
//  1. seconds from request start to the 200 of a 2,000,000-number POST /api/v2/sms/send over
//     real HTTP, and the server's peak RSS during it — 3 runs, a fresh message each;
//  2. seconds from that 200 until every recipient row is materialised (`materialised_upto`
//     polled every 100 ms through a read connection of the bench's own);
//  3. GET …/recipients latency p50/p99 (first, middle, last page; a rare-status filter; a
//     substring search), one request at a time over a keep-alive connection, while a message
//     is still being materialised (searches during run 2, pages during run 3) and after;
//  4. requests/s of GET /api/v2/sms/{uuid} with 50 connections (autocannon, its own process).
//
// Nok runs in a child process (support/nok-server.ts) on a fresh SQLite file or PostgreSQL
// schema, so its RSS is its own. Run through `npm run bench`, or alone:
//
//   node --import tsx bench/accept-and-page.bench.ts
//   NOK_BENCH_ENGINE=postgres NOK_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --import tsx bench/accept-and-page.bench.ts
import { benchEngine, createBenchDatabase, type BenchDatabase } from './support/bench-database.js';
import { HttpClient } from './support/http-client.js';
import { autocannon } from './support/load.js';
import { startNokServer, type NokServer } from './support/nok-process.js';
import { measurePages, pageKinds, substringOf, type PageKind } from './support/recipient-pages.js';
import { machineCaveat, record } from './support/report.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { buildSendBody, randomMsisdns } from './support/send-body.js';

const BENCH = 'accept-and-page';
const NUMBER_COUNT = Number(process.env.NOK_BENCH_NUMBERS ?? 2_000_000);
const RUNS = 3;
const BLOCKED_COUNT = 100;
const PAGE_REQUESTS = 200;
const LOAD_CONNECTIONS = 50;
const LOAD_SECONDS = Number(process.env.NOK_BENCH_LOAD_SECONDS ?? 10);
const ACCEPT_TARGET_S = 1.5;
const RSS_TARGET_MB = 600;
const POLL_MS = 100;
const MATERIALISE_TIMEOUT_MS = 15 * 60_000;
const MB = 1024 * 1024;
const COUNT_LABEL = NUMBER_COUNT >= 1e6 ? `${NUMBER_COUNT / 1e6}M` : `${NUMBER_COUNT / 1e3}k`;

const { engine, pgUrl } = benchEngine();

interface Accepted {
  readonly uuid: string;
  readonly total: number;
  /** hrtime (ms) of the 200 answer. */
  readonly answeredAtMs: number;
  readonly suffixes: Uint32Array;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

function figure(
  metric: string,
  value: number,
  unit: 's' | 'ms' | 'MB' | 'req/s',
  extra: { target?: number; note?: string; p50?: number } = {},
) {
  const target = extra.target;
  record({
    bench: BENCH,
    engine,
    metric,
    value,
    unit,
    ...(extra.p50 !== undefined ? { p50: extra.p50 } : {}),
    ...(target !== undefined ? { target: `≤ ${target} ${unit}`, met: value <= target } : {}),
    ...(extra.note ? { note: extra.note } : {}),
  });
}

async function accept(
  server: NokServer,
  client: HttpClient,
  run: number,
  body: Buffer,
  suffixes: Uint32Array,
): Promise<Accepted> {
  server.resetPeakRss();
  const idleMb = server.rssBytes() / MB;
  const answer = await client.post('/api/v2/sms/send', body);
  const answeredAtMs = nowMs();
  const peakMb = server.peakRssBytes() / MB;
  if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body.toString()}`);
  const sent = JSON.parse(answer.body.toString()) as {
    uuid: string;
    recipients: { valid: number; invalid: number; blocked: number; duplicates: number };
  };
  const r = sent.recipients;
  figure(`accept ${COUNT_LABEL} numbers, run ${run}`, answer.seconds, 's', {
    target: ACCEPT_TARGET_S,
    note: `${(body.length / MB).toFixed(1)} MB body; valid ${r.valid}, duplicates ${r.duplicates}, blocked ${r.blocked}`,
  });
  figure(`peak RSS during accept, run ${run}`, peakMb, 'MB', {
    target: RSS_TARGET_MB,
    note: `RSS before the request ${idleMb.toFixed(0)} MB`,
  });
  return { uuid: sent.uuid, total: r.valid + r.invalid, answeredAtMs, suffixes };
}

/** Polls `materialised_upto`; `done` resolves with the seconds from the 200 to the last row. */
function watchMaterialisation(database: BenchDatabase, accepted: Accepted) {
  let upto = 0;
  let finished = false;
  const done = new Promise<number>((resolve, reject) => {
    const poll = async () => {
      try {
        const progress = await database.progress(accepted.uuid);
        upto = progress.materialisedUpto;
        if (upto >= progress.recipientTotal) {
          finished = true;
          return resolve((nowMs() - accepted.answeredAtMs) / 1000);
        }
        if (nowMs() - accepted.answeredAtMs > MATERIALISE_TIMEOUT_MS)
          return reject(new Error('materialisation timed out'));
        setTimeout(poll, POLL_MS);
      } catch (error) {
        reject(error);
      }
    };
    void poll();
  });
  return { done, upto: () => upto, finished: () => finished };
}

function reportMaterialised(
  server: NokServer,
  accepted: Accepted,
  seconds: number,
  run: number,
  meanwhile: string,
) {
  figure(`all rows materialised, run ${run}`, seconds, 's', {
    note: `${(accepted.total / seconds / 1000).toFixed(0)}k rows/s after the 200; ${meanwhile}`,
  });
  figure(`peak RSS accept + materialise, run ${run}`, server.peakRssBytes() / MB, 'MB');
}

function kindsFor(accepted: Accepted, group: PageKind['group']): PageKind[] {
  const { suffixes, total } = accepted;
  return pageKinds(
    total,
    substringOf(suffixes[Math.floor(suffixes.length / 2)]!, 6),
    substringOf(suffixes[Math.floor(suffixes.length / 4)]!, 5),
  ).filter((kind) => kind.group === group);
}

/**
 * Samples `kinds` in turn. During materialisation (`watch` given) it stops when the last row is
 * written, so every sample was taken while the scheduler was writing rows.
 */
async function pageLatencies(
  client: HttpClient,
  accepted: Accepted,
  kinds: readonly PageKind[],
  watch?: ReturnType<typeof watchMaterialisation>,
): Promise<void> {
  const phase = watch ? 'during materialisation' : 'after materialisation';
  const from = watch?.upto() ?? accepted.total;
  const latencies = await measurePages(client, accepted.uuid, kinds, {
    requests: PAGE_REQUESTS,
    budgetMs: watch ? MATERIALISE_TIMEOUT_MS : 15_000,
    stop: watch?.finished,
  });
  const progress = watch
    ? `; rows materialised ${from}→${watch.upto()} of ${accepted.total} meanwhile`
    : '';
  for (const latency of latencies) {
    const query = latency.kind.path ?? (latency.kind.query || 'no after');
    figure(`${phase}: ${latency.kind.label} p50 / p99`, latency.p99Ms, 'ms', {
      p50: latency.p50Ms,
      ...(latency.kind.targetMs !== undefined ? { target: latency.kind.targetMs } : {}),
      note:
        `${query}; ${latency.samples} requests, ${latency.rows} rows/page, ` +
        `max ${latency.maxMs.toFixed(1)} ms${progress}`,
    });
  }
}

async function main(): Promise<void> {
  console.log(
    `\n== ${BENCH} (${engine}): ${NUMBER_COUNT.toLocaleString('en')} numbers per send ==`,
  );
  console.log(machineCaveat());
  const database = await createBenchDatabase(engine, pgUrl);
  let server: NokServer | undefined;
  const clients: HttpClient[] = [];
  try {
    server = await startNokServer({ NOK_DATABASE_URL: database.url });
    const random = seededRandom(20_000_002);
    const blocked = randomMsisdns(BLOCKED_COUNT, random);
    const customer = await server.seed(10 * RUNS * NUMBER_COUNT, blocked);
    console.log(
      `Nok pid ${server.pid} at ${server.url}; idle RSS ${(server.rssBytes() / MB).toFixed(0)} MB`,
    );
    const sendClient = new HttpClient(server.url, customer.key);
    const pageClient = new HttpClient(server.url, customer.key);
    clients.push(sendClient, pageClient);

    // Run 1 materialises with nothing else asked of the server; during run 2 the searches are
    // sampled, during run 3 the pages (a search costs 100× a page: mixed, they would starve it).
    let last: Accepted | undefined;
    for (let run = 1; run <= RUNS; run++) {
      const { body, suffixes } = buildSendBody(NUMBER_COUNT, customer.sender, blocked, random);
      last = await accept(server, sendClient, run, body, suffixes);
      const watch = watchMaterialisation(database, last);
      const group = run === 1 ? undefined : run === 2 ? ('search' as const) : ('page' as const);
      if (group) await pageLatencies(pageClient, last, kindsFor(last, group), watch);
      const meanwhile = group ? `${group} requests meanwhile, one at a time` : 'no other requests';
      reportMaterialised(server, last, await watch.done, run, meanwhile);
    }

    await pageLatencies(pageClient, last!, kindsFor(last!, 'page'));
    await pageLatencies(pageClient, last!, kindsFor(last!, 'search'));

    const load = await autocannon(
      `${server.url}/api/v2/sms/${last!.uuid}`,
      customer.key,
      LOAD_CONNECTIONS,
      LOAD_SECONDS,
    );
    // autocannon drops its connections with requests still queued in the server; one more
    // request, answered after them, lets them finish before the server is stopped.
    await pageClient.get(`/api/v2/sms/${last!.uuid}`);
    if (load.non2xx > 0 || load.errors > 0) {
      throw new Error(
        `GET /sms/{uuid} under load: ${load.non2xx} non-2xx answers, ${load.errors} errors`,
      );
    }
    figure(`GET /sms/{uuid}, ${LOAD_CONNECTIONS} connections`, load.requestsPerSecond, 'req/s', {
      note: `${LOAD_SECONDS} s, ${load.total} requests, latency p50 ${load.latencyP50Ms} ms, p99 ${load.latencyP99Ms} ms`,
    });
    console.log(
      `database size after ${RUNS} messages: ${((await database.sizeBytes()) / MB).toFixed(0)} MB`,
    );
  } finally {
    for (const client of clients) client.close();
    await server?.stop();
    await database.drop();
  }
}

await main();
