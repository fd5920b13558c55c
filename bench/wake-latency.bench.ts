// How long a one-number send takes from its 200 to its final status, with the roles as processes
// of their own (`nok api`, `nok scheduler`, `nok dispatcher`, each a Nok child) and, for
// reference, with every role in one process. The carrier is the built-in SMSC in a process of
// its own that answers and sends its receipt at once, so what is measured is how soon each role
// learns of the work the one before it did. Sends go one after another
// (NOK_BENCH_WAKE_SENDS, default 40), each followed until its recipient's status is final (success) by polling
// its recipients page every 5 ms; then the median and p90. Target (issue 17): a median of
// 100 ms or less with separate processes on PostgreSQL.
//
//   NOK_BENCH_ENGINE=postgres NOK_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --import tsx bench/wake-latency.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { writeSimCarriersFile } from './support/carriers-file.js';
import { HttpClient, quantile } from './support/http-client.js';
import { startNokServer, type NokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { startSmscProcess } from './support/smsc-process.js';

const BENCH = 'wake-latency';
const SENDS = Number(process.env.NOK_BENCH_WAKE_SENDS ?? 40);
const POLL_MS = 5;
const TIMEOUT_MS = 30_000;

const { engine, pgUrl } = benchEngine();
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

console.log(`== ${BENCH} (${engine}): ${SENDS} one-number sends, 200 → final`);
console.log(machineCaveat());

const smsc = await startSmscProcess({ preset: 'happy' });
const dir = mkdtempSync(join(tmpdir(), 'nok-bench-wake-'));
const carriersFile = writeSimCarriersFile(dir, smsc.port, 1);

/** One send's 200 to its recipient delivered, in ms. */
async function oneSend(client: HttpClient, sender: string, msisdn: string): Promise<number> {
  const body = Buffer.from(
    JSON.stringify({ sender, content: 'Nok wake bench', msisdns: [msisdn] }),
  );
  const answer = await client.post('/api/v2/sms/send', body);
  const acceptedAt = nowMs();
  if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body}`);
  const { uuid } = JSON.parse(answer.body.toString()) as { uuid: string };
  for (;;) {
    const page = await client.getJson<{ data: { status: string }[] }>(
      `/api/v2/sms/${uuid}/recipients?limit=1`,
    );
    const status = page.data[0]?.status;
    if (status !== undefined && status !== 'pending') {
      if (status !== 'success') throw new Error(`${uuid} ended ${status}`);
      return nowMs() - acceptedAt;
    }
    if (nowMs() - acceptedAt > TIMEOUT_MS)
      throw new Error(`${uuid} not final in time: ${JSON.stringify(page)}`);
    await sleep(POLL_MS);
  }
}

/** Runs the sends against roles started by `start`, and records the figures under `label`. */
async function measure(label: string, rolesOf: readonly string[]): Promise<number> {
  const database = await createBenchDatabase(engine, pgUrl);
  const servers: NokServer[] = [];
  try {
    for (const roles of rolesOf) {
      servers.push(
        await startNokServer({
          NOK_DATABASE_URL: database.url,
          NOK_CARRIERS_FILE: carriersFile,
          NOK_BENCH_ROLES: roles,
        }),
      );
    }
    const api = servers[0]!;
    const seeded = await api.seed(SENDS * 2 + 10, []);
    const client = new HttpClient(api.url, seeded.key);
    // The first send binds and warms every part; it is not counted.
    await oneSend(client, seeded.sender, '0800000000');
    const samples: number[] = [];
    for (let i = 0; i < SENDS; i++) {
      samples.push(await oneSend(client, seeded.sender, `08${String(10_000_000 + i)}`));
      // Apart, as one-time passwords come: each send finds every role idle.
      await sleep(50);
    }
    client.close();
    const median = quantile(samples, 0.5);
    record({
      bench: BENCH,
      engine,
      metric: `${label}: 200 → final, median`,
      value: median,
      unit: 'ms',
      note: `p90 ${quantile(samples, 0.9).toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms, ${SENDS} sends`,
    });
    return median;
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await database.drop();
  }
}

try {
  const separate = await measure('api, scheduler, dispatcher as separate processes', [
    'api',
    'scheduler,webhooks',
    'dispatcher,webhooks',
  ]);
  await measure('every role in one process', ['api,scheduler,dispatcher,webhooks']);
  // On SQLite the roles are meant to share one process; its separate processes still poll.
  if (engine === 'postgres')
    record({
      bench: BENCH,
      engine,
      metric: 'separate processes: median 200 → final',
      value: separate,
      unit: 'ms',
      target: '≤ 100',
      met: separate <= 100,
    });
} finally {
  await smsc.stop();
  rmSync(dir, { recursive: true, force: true });
}
