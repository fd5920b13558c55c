// A 1,000,000-row contact group import through the console, over real HTTP, on one engine
// (NOK_BENCH_ENGINE=sqlite|postgres), then the cost preview of a message to that group:
//
//  - import: seconds from the upload's first byte to the report of
//    POST /console/api/contact-groups/:id/import (the CSV streamed in 64 KiB writes, a cookie
//    session and its CSRF token, as the page sends the file), rows per second, and the Nok
//    child's peak RSS during it;
//  - preview: p50 and max of POST /console/api/messages/preview-cost with the group as the
//    recipients (what the compose page asks after each pause in typing), and of the dry run
//    (POST /console/api/messages with dryRun), each asked in turn over one keep-alive connection.
//
// The file is CSV with a header, the number in the first column and a name beside it, plus a few
// rejected lines and a repeat, so the report has something to say; 100 of the group's numbers
// are on the account's blocklist, so the preview has some to leave out. Nok runs in a child
// process (support/nok-server.ts). Run through `npm run bench -- contact-import`, or alone:
//   node --import tsx bench/contact-import.bench.ts
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { ConsoleClient } from './support/console-client.js';
import { startNokServer, type NokServer } from './support/nok-process.js';
import { machineCaveat, record } from './support/report.js';

const BENCH = 'contact-import';
const ROWS = Number(process.env.NOK_BENCH_ROWS ?? 1_000_000);
const BLOCKED_EVERY = Math.max(1, Math.floor(ROWS / 100));
const PREVIEWS = 10;
const DRY_RUNS = 3;
const MB = 1024 * 1024;
const CONTENT = 'Flash sale today only: 20% off everything';

const { engine, pgUrl } = benchEngine();

/** `08XXXXXXXX` of row i. */
function localNumber(i: number): string {
  return `08${String(i).padStart(8, '0')}`;
}

function csvOf(rows: number): Buffer {
  const lines = ['phone,name'];
  for (let i = 0; i < rows; i++) lines.push(`${localNumber(i)},Customer ${i}`);
  lines.push('not-a-number,x', '081234567,short', `${localNumber(0)},repeat`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

interface Estimate {
  readonly recipients: { readonly requested: number; readonly blocked: number; charged: number };
  readonly cost: number;
}

async function main(): Promise<void> {
  console.log(`\n== ${BENCH} (${engine}): ${ROWS.toLocaleString('en')} rows ==`);
  console.log(machineCaveat());
  const database = await createBenchDatabase(engine, pgUrl);
  let server: NokServer | undefined;
  let web: ConsoleClient | undefined;
  try {
    server = await startNokServer({ NOK_DATABASE_URL: database.url });
    const blocked: string[] = [];
    for (let i = 0; i < ROWS; i += BLOCKED_EVERY) blocked.push(`66${localNumber(i).slice(1)}`);
    const { sender } = await server.seed(10 * ROWS, blocked);
    web = new ConsoleClient(server.url);
    await web.signIn();

    const created = await web.post(
      '/console/api/contact-groups',
      json({ name: 'Bench' }),
      'application/json',
    );
    if (created.status !== 201) throw new Error(`create group → ${created.status} ${created.body}`);
    const { id } = JSON.parse(created.body) as { id: number };

    const file = csvOf(ROWS);
    server.resetPeakRss();
    const imported = await web.post(`/console/api/contact-groups/${id}/import`, file, 'text/csv');
    const peakMb = server.peakRssBytes() / MB;
    if (imported.status !== 200) throw new Error(`import → ${imported.status} ${imported.body}`);
    const report = JSON.parse(imported.body) as {
      added: number;
      duplicates: number;
      rejected: number;
    };
    if (report.added !== ROWS || report.duplicates !== 1 || report.rejected !== 2)
      throw new Error(`unexpected report ${imported.body}`);
    const note = `${(file.length / MB).toFixed(1)} MB CSV; added ${report.added}, repeats ${report.duplicates}, rejected ${report.rejected}`;
    record({
      bench: BENCH,
      engine,
      metric: `import ${ROWS.toLocaleString('en')} rows: seconds`,
      value: imported.seconds,
      unit: 's',
      note,
    });
    record({
      bench: BENCH,
      engine,
      metric: 'import: rows per second',
      value: ROWS / imported.seconds,
      unit: 'rows/s',
    });
    record({ bench: BENCH, engine, metric: 'import: server peak RSS', value: peakMb, unit: 'MB' });

    const ask = async (label: string, path: string, body: Buffer, times: number) => {
      const seconds: number[] = [];
      let last: Estimate | undefined;
      for (let i = 0; i < times; i++) {
        const answer = await web!.post(path, body, 'application/json');
        if (answer.status !== 200) throw new Error(`${label} → ${answer.status} ${answer.body}`);
        seconds.push(answer.seconds * 1000);
        last = JSON.parse(answer.body) as Estimate;
      }
      const { requested, blocked: blockedCount, charged } = last!.recipients;
      if (
        requested !== ROWS ||
        blockedCount !== blocked.length ||
        charged !== ROWS - blocked.length
      )
        throw new Error(`${label}: unexpected recipients ${JSON.stringify(last!.recipients)}`);
      record({
        bench: BENCH,
        engine,
        metric: `${label}, group of ${ROWS.toLocaleString('en')}: p50 / max`,
        p50: p50(seconds),
        value: Math.max(...seconds),
        unit: 'ms',
        note: `${times} asks; charged ${charged} of ${requested} (${blockedCount} blocklisted)`,
      });
    };
    await ask(
      'preview-cost',
      '/console/api/messages/preview-cost',
      json({ content: CONTENT, contactGroupId: id }),
      PREVIEWS,
    );
    await ask(
      'dry run',
      '/console/api/messages',
      json({ sender, content: CONTENT, contactGroupId: id, dryRun: true }),
      DRY_RUNS,
    );
  } finally {
    web?.close();
    await server?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
