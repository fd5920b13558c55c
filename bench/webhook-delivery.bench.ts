// What webhooks cost delivery, on one engine (NOK_BENCH_ENGINE=sqlite|postgres): sends of
// NOK_BENCH_DELIVERY_NUMBERS (default 100,000) numbers delivered end to end as in
// delivery.bench.ts (a Nok child with the API, the scheduler, the dispatcher and the webhook
// deliverer; the built-in SMSC in a process of its own, receipts at once), alternately without
// a webhook endpoint and with one on a receiver of this process on 127.0.0.1 (after a warm-up
// send, NOK_BENCH_WEBHOOK_ROUNDS pairs A B A B …, default 5, so that the machine's drift falls
// on both). Each round prints
// recipients per second (the send's request → no recipient pending) and Nok's CPU per recipient,
// all of it and its main thread's;
// a round with the endpoint also waits for every recipient's final status at the receiver and
// prints when the last came and how many requests carried them. Then the ratios of each pair
// of rounds (B ÷ the A before it), their median, and the machine's load average.
//
//   node --import tsx bench/webhook-delivery.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { HttpClient } from './support/http-client.js';
import { startNokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { startSmscProcess } from './support/smsc-process.js';
import { writeSimCarriersFile } from './support/carriers-file.js';
import { startFinalCounter } from './support/final-counter.js';

const BENCH = 'webhook-delivery';
const NUMBERS = Number(process.env.NOK_BENCH_DELIVERY_NUMBERS ?? 100_000);
const ROUNDS = Number(process.env.NOK_BENCH_WEBHOOK_ROUNDS ?? 5);
const POLL_MS = 100;
const TIMEOUT_MS = 10 * 60_000;

const { engine, pgUrl } = benchEngine();
// The receiver's clock: it notes when the last request came.
const nowMs = () => performance.now();

console.log(`== ${BENCH} (${engine}): ${NUMBERS} recipients, without and with a webhook endpoint`);
console.log(machineCaveat());

// The receiver: counts the recipients of `recipients.final` events as they come.
const receiver = await startFinalCounter();

const database = await createBenchDatabase(engine, pgUrl);
const smsc = await startSmscProcess({ preset: 'happy' });
const dir = mkdtempSync(join(tmpdir(), 'nok-bench-webhooks-'));
const carriersFile = writeSimCarriersFile(dir, smsc.port, 8);
const server = await startNokServer({
  NOK_DATABASE_URL: database.url,
  NOK_CARRIERS_FILE: carriersFile,
  NOK_BENCH_DISPATCHER: '1',
  NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});

/** Sends `msisdns` and waits until none of their recipients is pending. */
async function deliverAll(client: HttpClient, msisdns: string[], sender: string): Promise<void> {
  const start = nowMs();
  const body = Buffer.from(JSON.stringify({ sender, content: 'Nok webhook bench', msisdns }));
  const answer = await client.post('/api/v2/sms/send', body);
  if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body}`);
  const { uuid } = JSON.parse(answer.body.toString()) as { uuid: string };
  for (let pending = msisdns.length; pending > 0;) {
    if (nowMs() - start > TIMEOUT_MS) throw new Error(`not delivered after ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const page = await client.getJson<{ summary: { status: string; count: number }[] }>(
      `/api/v2/sms/${uuid}/recipients?limit=1`,
    );
    pending = page.summary.find((s) => s.status === 'pending')?.count ?? 0;
  }
}

interface Round {
  readonly hooked: boolean;
  readonly rate: number;
  readonly cpuUs: number;
  readonly mainUs: number;
}

try {
  const seeded = await server.seed(NUMBERS * (2 * ROUNDS + 1), []);
  const client = new HttpClient(server.url, seeded.key);
  // Warm-up: the first send of a fresh process and database is the slowest of all.
  await deliverAll(
    client,
    Array.from({ length: NUMBERS / 5 }, (_, i) => `0${800_000_000 + i}`),
    seeded.sender,
  );
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS * 2; round++) {
    const hooked = round % 2 === 1;
    if (round > 0 || hooked) await server.setWebhook(seeded.accountId, receiver.url, hooked);
    receiver.reset();
    const first = 810_000_000 + round * NUMBERS;
    const msisdns = Array.from({ length: NUMBERS }, (_, i) => `0${first + i}`);
    const cpuAtSend = server.cpuSeconds();
    const mainAtSend = server.mainThreadCpuSeconds();
    const start = nowMs();
    await deliverAll(client, msisdns, seeded.sender);
    const seconds = (nowMs() - start) / 1000;
    const cpu = server.cpuSeconds() - cpuAtSend;
    const main = server.mainThreadCpuSeconds() - mainAtSend;
    const label = hooked ? 'with an endpoint' : 'without';
    rounds.push({
      hooked,
      rate: NUMBERS / seconds,
      cpuUs: (cpu / NUMBERS) * 1e6,
      mainUs: (main / NUMBERS) * 1e6,
    });
    record({
      bench: BENCH,
      engine,
      metric: `round ${round + 1} ${label}: recipients per second`,
      value: NUMBERS / seconds,
      unit: 'msg/s',
      note: `${seconds.toFixed(2)} s; Nok CPU ${((cpu / NUMBERS) * 1e6).toFixed(1)} µs/recipient, ${((main / NUMBERS) * 1e6).toFixed(1)} on its main thread`,
    });
    if (hooked) {
      while (receiver.finals < NUMBERS) {
        if (nowMs() - start > TIMEOUT_MS) {
          throw new Error(`${receiver.finals} of ${NUMBERS} final statuses received`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The completion event comes after the last recipients': give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      record({
        bench: BENCH,
        engine,
        metric: `round ${round + 1}: every final status received`,
        value: (receiver.lastAt - start) / 1000,
        unit: 's',
        note: `${receiver.finals} recipients in ${receiver.requests} requests (${(receiver.finals / receiver.requests).toFixed(0)} a request), ${((receiver.lastAt - start) / 1000 - seconds).toFixed(2)} s after the last was stored`,
      });
    }
  }
  client.close();
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    return Number.isInteger(middle)
      ? (sorted[middle - 1]! + sorted[middle]!) / 2
      : sorted[Math.floor(middle)]!;
  };
  const pairs = (pick: (r: Round) => number) =>
    rounds.flatMap((r, i) => (r.hooked ? [pick(r) / pick(rounds[i - 1]!)] : []));
  const rateRatio = median(pairs((r) => r.rate));
  const cpuRatio = median(pairs((r) => r.cpuUs));
  const mainRatio = median(pairs((r) => r.mainUs));
  const each = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  record({
    bench: BENCH,
    engine,
    metric: 'with ÷ without: recipients per second',
    value: rateRatio,
    unit: '×',
    target: '≥ 0.9',
    met: rateRatio >= 0.9,
    note: `pairs ${each(pairs((r) => r.rate))}; load average ${load}`,
  });
  record({
    bench: BENCH,
    engine,
    metric: "with ÷ without: Nok's CPU per recipient",
    value: cpuRatio,
    unit: '×',
    target: '≤ 1.1',
    met: cpuRatio <= 1.1,
    note: `pairs ${each(pairs((r) => r.cpuUs))}; load average ${load}`,
  });
  // The event loop is what a send waits for: with Nok's main thread busy all through a round,
  // the rate follows this figure, not the process's.
  record({
    bench: BENCH,
    engine,
    metric: "with ÷ without: Nok's main thread CPU per recipient",
    value: mainRatio,
    unit: '×',
    note: `pairs ${each(pairs((r) => r.mainUs))}; load average ${load}`,
  });
} finally {
  await server.stop();
  await smsc.stop();
  await database.drop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
