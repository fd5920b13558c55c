// End-to-end delivery throughput on one engine (NOK_BENCH_ENGINE=sqlite|postgres): a send of
// NOK_BENCH_DELIVERY_NUMBERS (default 100,000) numbers is accepted over HTTP, materialised,
// dispatched over SMPP to the built-in SMSC (`nok smsc`, its own process, receipts at once),
// and every receipt stored. The figure is recipients per second from the send's request to the
// moment the last recipient has its final status (polled every 100 ms); and the CPU time the Nok
// process used over that same span, per recipient.
//
// Everything shares the machine's cores: Nok, the SMSC, the database server and the poller.
//
//   node --import tsx bench/delivery.bench.ts
import { join } from 'node:path';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { HttpClient } from './support/http-client.js';
import { startNokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';
import { kannelDeliverySeconds } from './support/kannel-reference.js';
import { startSmscProcess } from './support/smsc-process.js';
import { writeSimCarriersFile } from './support/carriers-file.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const BENCH = 'delivery';
const NUMBERS = Number(process.env.NOK_BENCH_DELIVERY_NUMBERS ?? 100_000);
const POLL_MS = 100;
const TIMEOUT_MS = 10 * 60_000;
/** Binds of Nok, and of Kannel in the reference run: 8 × a window of 100. */
const BINDS = 8;

const { engine, pgUrl } = benchEngine();
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

console.log(`== ${BENCH} (${engine}): ${NUMBERS} recipients, accept → submit → receipt → stored`);
console.log(machineCaveat());

const database = await createBenchDatabase(engine, pgUrl);
const smsc = await startSmscProcess({ preset: 'happy' });
const dir = mkdtempSync(join(tmpdir(), 'nok-bench-delivery-'));
const carriersFile = writeSimCarriersFile(dir, smsc.port, BINDS);
const server = await startNokServer({
  NOK_DATABASE_URL: database.url,
  NOK_CARRIERS_FILE: carriersFile,
  NOK_BENCH_DISPATCHER: '1',
});
try {
  const seeded = await server.seed(NUMBERS * 2, []);
  const client = new HttpClient(server.url, seeded.key);
  const msisdns = Array.from({ length: NUMBERS }, (_, i) => `0${810_000_000 + i * 3}`);
  const body = Buffer.from(
    JSON.stringify({ sender: seeded.sender, content: 'Nok delivery bench', msisdns }),
  );
  const cpuAtSend = server.cpuSeconds();
  const databaseCpuAtSend = await database.serverCpuSeconds();
  const start = nowMs();
  const answer = await client.post('/api/v2/sms/send', body);
  if (answer.status !== 200) throw new Error(`send → ${answer.status} ${answer.body}`);
  const { uuid } = JSON.parse(answer.body.toString()) as { uuid: string };
  record({
    bench: BENCH,
    engine,
    metric: `accept ${NUMBERS} numbers`,
    value: answer.seconds,
    unit: 's',
  });

  let pending = NUMBERS;
  let summary: Record<string, number> = {};
  while (pending > 0) {
    if (nowMs() - start > TIMEOUT_MS) throw new Error(`not delivered after ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const page = await client.getJson<{ summary: { status: string; count: number }[] }>(
      `/api/v2/sms/${uuid}/recipients?limit=1`,
    );
    summary = Object.fromEntries(page.summary.map((s) => [s.status, s.count]));
    pending = summary.pending ?? 0;
    if (process.env.NOK_BENCH_TRACE)
      console.log(JSON.stringify(await (await fetch(`${server.opsUrl}/status`)).json()), pending);
  }
  const seconds = (nowMs() - start) / 1000;
  record({
    bench: BENCH,
    engine,
    metric: 'all recipients final',
    value: seconds,
    unit: 's',
    note: JSON.stringify(summary),
  });
  record({
    bench: BENCH,
    engine,
    metric: 'end-to-end recipients per second',
    value: NUMBERS / seconds,
    unit: 'msg/s',
    note: 'send request → last status stored',
  });
  const cpu = server.cpuSeconds() - cpuAtSend;
  record({
    bench: BENCH,
    engine,
    metric: "Nok's CPU per recipient",
    value: (cpu / NUMBERS) * 1e6,
    unit: 'µs',
    note: `${cpu.toFixed(2)} s of the Nok process (user + system) from the send ÷ ${NUMBERS}`,
  });
  const databaseCpuNow = await database.serverCpuSeconds();
  if (databaseCpuAtSend !== null && databaseCpuNow !== null) {
    const databaseCpu = databaseCpuNow - databaseCpuAtSend;
    record({
      bench: BENCH,
      engine,
      metric: "PostgreSQL's CPU per recipient",
      value: (databaseCpu / NUMBERS) * 1e6,
      unit: 'µs',
      note: `${databaseCpu.toFixed(2)} s of the whole cluster on this machine from the send ÷ ${NUMBERS}`,
    });
  }
  client.close();

  // The reference: Kannel through the same SMSC, as many binds, the same number of recipients.
  if (process.env.NOK_BENCH_KANNEL !== 'off') {
    const kannelSeconds = await kannelDeliverySeconds({
      smscPort: smsc.port,
      numbers: NUMBERS,
      binds: BINDS,
      timeoutMs: TIMEOUT_MS,
    });
    const kannelRate = NUMBERS / kannelSeconds;
    record({
      bench: BENCH,
      engine,
      metric: 'Kannel 1.4.5, same load and SMSC',
      value: kannelRate,
      unit: 'msg/s',
      note: `${kannelSeconds.toFixed(1)} s, first sendsms → last DLR`,
    });
    record({
      bench: BENCH,
      engine,
      metric: 'Nok ÷ Kannel',
      value: NUMBERS / seconds / kannelRate,
      unit: '×',
      target: '≥ 3',
      met: NUMBERS / seconds / kannelRate >= 3,
    });
  }
} finally {
  await server.stop();
  await smsc.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
