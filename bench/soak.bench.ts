// Nok over time (issue 17, item 5): the roles as processes of their own (`api`,
// `scheduler,webhooks`, `dispatcher,webhooks`; on SQLite, whose roles share one process, one
// process with all of them) under mixed load for NOK_BENCH_SOAK_MINUTES (default 30):
//
// - one-number sends at NOK_BENCH_SOAK_SENDS_PER_SECOND (default 5), one after another;
// - a send of NOK_BENCH_SOAK_BIG_NUMBERS (default 100,000) every NOK_BENCH_SOAK_BIG_EVERY_MINUTES
//   (default 3), the first at the start;
// - a recipients page of the latest big send every 200 ms, and the console's messages list,
//   signed in as the bench owner, every second;
// - a webhook endpoint on a receiver in this process, for every event.
//
// Every NOK_BENCH_SOAK_SAMPLE_SECONDS (default 30) it prints each process's RSS and the
// event-loop delay its /metrics saw since the last sample (prom-client's, mean and p99). At the
// end it waits for every recipient to be final and every final status to reach the receiver,
// and prints each process's peak RSS in the second half of the run after the warm-up (its first
// sixth) against the first half (target: within 10 %), and the same for the event-loop p99.
// The SMSC is a process of its own answering at once, receipts at once.
//
//   NOK_BENCH_ENGINE=postgres NOK_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --import tsx bench/soak.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { writeSimCarriersFile } from './support/carriers-file.js';
import { ConsoleClient } from './support/console-client.js';
import { startFinalCounter } from './support/final-counter.js';
import { HttpClient } from './support/http-client.js';
import { startNokServer, type NokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { startSmscProcess } from './support/smsc-process.js';

const BENCH = 'soak';
const MINUTES = Number(process.env.NOK_BENCH_SOAK_MINUTES ?? 30);
const SENDS_PER_SECOND = Number(process.env.NOK_BENCH_SOAK_SENDS_PER_SECOND ?? 5);
const BIG = Number(process.env.NOK_BENCH_SOAK_BIG_NUMBERS ?? 100_000);
const BIG_EVERY_MS = Number(process.env.NOK_BENCH_SOAK_BIG_EVERY_MINUTES ?? 3) * 60_000;
const SAMPLE_MS = Number(process.env.NOK_BENCH_SOAK_SAMPLE_SECONDS ?? 30) * 1000;
const DURATION_MS = MINUTES * 60_000;
const WARM_UP_MS = DURATION_MS / 6;

const { engine, pgUrl } = benchEngine();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

console.log(
  `== ${BENCH} (${engine}): ${MINUTES} min, ${SENDS_PER_SECOND} one-number sends/s, ${BIG} numbers every ${BIG_EVERY_MS / 60_000} min, pages, console reads, webhooks`,
);
console.log(machineCaveat());

// The webhook receiver: counts the recipients of `recipients.final` events.
const receiver = await startFinalCounter();

const database = await createBenchDatabase(engine, pgUrl);
const smsc = await startSmscProcess({ preset: 'happy' });
const dir = mkdtempSync(join(tmpdir(), 'nok-bench-soak-'));
const carriersFile = writeSimCarriersFile(dir, smsc.port, 4);
const roleSets =
  engine === 'postgres'
    ? ['api', 'scheduler,webhooks', 'dispatcher,webhooks']
    : ['api,scheduler,dispatcher,webhooks'];
const processes: { readonly name: string; readonly server: NokServer }[] = [];

/** prom-client's event-loop delay since the last scrape, in ms. */
async function loopDelay(server: NokServer): Promise<{ meanMs: number; p99Ms: number }> {
  const text = await (await fetch(`${server.opsUrl}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^nok_process_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return {
    meanMs: value('nodejs_eventloop_lag_mean_seconds'),
    p99Ms: value('nodejs_eventloop_lag_p99_seconds'),
  };
}

interface Sample {
  readonly atMs: number;
  readonly rssMb: number[];
  readonly p99Ms: number[];
}

try {
  for (const roles of roleSets) {
    processes.push({
      name: roles.split(',')[0]!,
      server: await startNokServer({
        NOK_DATABASE_URL: database.url,
        NOK_CARRIERS_FILE: carriersFile,
        NOK_BENCH_ROLES: roles,
        NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      }),
    });
  }
  const api = processes[0]!.server;
  const bigSends = Math.ceil(DURATION_MS / BIG_EVERY_MS);
  const credits = bigSends * BIG + Math.ceil((DURATION_MS / 1000) * SENDS_PER_SECOND) + 1000;
  const seeded = await api.seed(credits, []);
  await api.setWebhook(seeded.accountId, receiver.url, true);
  const client = new HttpClient(api.url, seeded.key);
  const pager = new HttpClient(api.url, seeded.key);
  const consoleClient = new ConsoleClient(api.url);
  await consoleClient.signIn();

  const started = Date.now();
  const running = () => Date.now() - started < DURATION_MS;
  const uuids: string[] = [];
  let recipients = 0;
  let latestBig: string | undefined;
  let failures = 0;

  const send = async (msisdns: string[]) => {
    const body = Buffer.from(
      JSON.stringify({ sender: seeded.sender, content: 'Nok soak', msisdns }),
    );
    const answer = await client.post('/api/v2/sms/send', body);
    if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body}`);
    const { uuid } = JSON.parse(answer.body.toString()) as { uuid: string };
    uuids.push(uuid);
    recipients += msisdns.length;
    return uuid;
  };
  let serial = 0;
  const small = (async () => {
    while (running()) {
      const due = Date.now() + 1000 / SENDS_PER_SECOND;
      await send([`09${String(10_000_000 + (serial++ % 80_000_000))}`]);
      await sleep(Math.max(0, due - Date.now()));
    }
  })();
  const big = (async () => {
    for (let round = 0; running(); round++) {
      const first = 810_000_000 + round * BIG;
      latestBig = await send(Array.from({ length: BIG }, (_, i) => `0${first + i}`));
      const next = started + (round + 1) * BIG_EVERY_MS;
      while (running() && Date.now() < next) await sleep(1000);
    }
  })();
  const reads = (async () => {
    for (let tick = 0; running(); tick++) {
      if (latestBig) {
        const page = await pager.get(`/api/v2/sms/${latestBig}/recipients?limit=50`);
        if (page.status !== 200) failures++;
      }
      if (tick % 5 === 0) {
        const list = await consoleClient.get('/console/api/messages?limit=20');
        if (list.status !== 200) failures++;
      }
      await sleep(200);
    }
  })();

  const samples: Sample[] = [];
  const sampling = (async () => {
    for (let next = started + SAMPLE_MS; running(); next += SAMPLE_MS) {
      await sleep(Math.max(0, next - Date.now()));
      const delays = await Promise.all(processes.map(({ server }) => loopDelay(server)));
      const sample: Sample = {
        atMs: Date.now() - started,
        rssMb: processes.map(({ server }) => server.rssBytes() / 1e6),
        p99Ms: delays.map((d) => d.p99Ms),
      };
      samples.push(sample);
      console.log(
        `  ${(sample.atMs / 60_000).toFixed(1).padStart(5)} min  ` +
          processes
            .map(
              ({ name }, i) =>
                `${name}: RSS ${sample.rssMb[i]!.toFixed(0)} MB, loop delay mean ${delays[i]!.meanMs.toFixed(1)} ms p99 ${delays[i]!.p99Ms.toFixed(1)} ms`,
            )
            .join(' | '),
      );
    }
  })();
  await Promise.all([small, big, reads, sampling]);

  // Everything final, and every final status received.
  const finalAt = Date.now() + 10 * 60_000;
  for (const uuid of uuids) {
    for (;;) {
      const page = await client.getJson<{ summary: { status: string; count: number }[] }>(
        `/api/v2/sms/${uuid}/recipients?limit=1`,
      );
      if ((page.summary.find((s) => s.status === 'pending')?.count ?? 0) === 0) break;
      if (Date.now() > finalAt) throw new Error(`${uuid} still has pending recipients`);
      await sleep(500);
    }
  }
  while (receiver.finals < recipients && Date.now() < finalAt) await sleep(500);
  client.close();
  pager.close();
  consoleClient.close();

  // RSS saws with the garbage collector: a leak shows as a higher peak in the second half of
  // the run after the warm-up than in its first half.
  const afterWarmUp = samples.filter((s) => s.atMs >= WARM_UP_MS);
  const halves = [
    afterWarmUp.slice(0, Math.floor(afterWarmUp.length / 2)),
    afterWarmUp.slice(Math.floor(afterWarmUp.length / 2)),
  ];
  const peak = (half: Sample[], i: number, pick: (s: Sample) => number[]) =>
    Math.max(...half.map((s) => pick(s)[i]!));
  processes.forEach(({ name }, i) => {
    if (halves[0]!.length === 0 || halves[1]!.length === 0) return;
    const [early, late] = halves.map((half) => peak(half, i, (s) => s.rssMb));
    const [earlyLag, lateLag] = halves.map((half) => peak(half, i, (s) => s.p99Ms));
    const growth = late! / early!;
    record({
      bench: BENCH,
      engine,
      metric: `${name}: peak RSS, second half ÷ first half after the warm-up`,
      value: growth,
      unit: '×',
      target: '≤ 1.1',
      met: growth <= 1.1,
      note: `${early!.toFixed(0)} → ${late!.toFixed(0)} MB; peak event-loop p99 ${earlyLag!.toFixed(1)} → ${lateLag!.toFixed(1)} ms`,
    });
  });
  record({
    bench: BENCH,
    engine,
    metric: 'every recipient final, every final status received',
    value: receiver.finals,
    unit: 'rows',
    target: `= ${recipients}`,
    met: receiver.finals >= recipients && failures === 0,
    note: `${uuids.length} sends; ${failures} failed reads`,
  });
} finally {
  for (const { server } of processes.reverse()) await server.stop();
  await smsc.stop();
  await database.drop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
