// The customer dashboard's reads at scale: one account with NOK_BENCH_DASHBOARD_MESSAGES
// messages (default 300,000) spread over the 30 days the dashboard shows, each with 1,000
// recipients and three per-status counters, and a second account as large beside it. Prints the
// milliseconds of readAccountDashboard (balance, the two day queries over messages and
// message_counts, the latest messages) and of the platform dashboard over a month of hourly
// figures for 4 carriers. No recipient rows exist: the dashboard never reads them.
//
//   NOK_BENCH_ENGINE=sqlite|postgres node --import tsx bench/dashboard.bench.ts
import { createAccount } from '../src/domain/accounts/create-account.js';
import { SYSTEM_ACTOR } from '../src/domain/audit/audit-actor.js';
import { readAccountDashboard } from '../src/domain/dashboard/read-account-dashboard.js';
import { readPlatformDashboard } from '../src/domain/dashboard/read-platform-dashboard.js';
import { lastDaysIn } from '../src/domain/dashboard/zoned-days.js';
import { listMessages } from '../src/domain/messages/list-messages.js';
import { deliveryFiguresStore } from '../src/storage/dashboard-store.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase } from '../src/storage/open-database.js';
import { createStore } from '../src/storage/store.js';
import { benchEngine, createBenchDatabase } from './support/bench-database.js';
import { machineCaveat, record } from './support/report.js';

const BENCH = 'dashboard';
const MESSAGES = Number(process.env.NOK_BENCH_DASHBOARD_MESSAGES ?? 300_000);
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const RUNS = 5;

const { engine, pgUrl } = benchEngine();
console.log(`== ${BENCH} (${engine}): ${MESSAGES} messages of one account over 30 days`);
console.log(machineCaveat());

const bench = await createBenchDatabase(engine, pgUrl);
const database = openDatabase(bench.url);
await migrate(database);
const store = createStore(database.db);
const nowMs = Date.parse('2026-11-22T12:00:00Z');

const accounts: Awaited<ReturnType<typeof createAccount>>[] = [];
for (const name of ['Measured', 'Beside it']) {
  accounts.push(await createAccount(store, { name, credits: 0, nowMs, actor: SYSTEM_ACTOR }));
}

const loadStart = performance.now();
const BATCH = 1_000;
let id = 0;
for (const account of accounts) {
  for (let first = 0; first < MESSAGES; first += BATCH) {
    const messages = [];
    const counts = [];
    for (let i = first; i < Math.min(first + BATCH, MESSAGES); i++) {
      id++;
      const createdAt = nowMs - Math.floor((i / MESSAGES) * 30 * DAY_MS);
      messages.push({
        id,
        uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
        account_id: account.id,
        api_key_id: null,
        ref_no: `M${id}`,
        sender: 'BENCH',
        content: 'Hello',
        parts: 1,
        status: 'sent',
        scheduled_at: null,
        created_at: createdAt,
        updated_at: createdAt,
        completed_at: createdAt,
        requested_count: 1000,
        duplicate_count: 0,
        recipient_total: 1000,
        valid_count: 1000,
        invalid_count: 0,
        blocked_count: 0,
        charged_count: 1000,
        price_per_part: 1,
        cost: 1000,
        materialised_upto: 1000,
      });
      counts.push(
        { message_id: id, status: 'success', count: 950 },
        { message_id: id, status: 'failed', count: 30 },
        { message_id: id, status: 'timeout', count: 20 },
      );
    }
    await database.db.insertInto('messages').values(messages).execute();
    await database.db.insertInto('message_counts').values(counts).execute();
  }
}
const figures = deliveryFiguresStore(database.db);
const hour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
for (let back = 0; back < 30 * 24; back += 24) {
  const deltas = [];
  for (let h = 0; h < 24; h++) {
    const hourStart = hour - (back + h) * HOUR_MS;
    for (const carrier of ['ais', 'dtac', 'true', 'nt']) {
      deltas.push({ hourStart, carrier, figure: 'recipients' as const, label: '', count: 1000 });
      deltas.push({
        hourStart,
        carrier,
        figure: 'submit-error' as const,
        label: '0x00000058',
        count: 3,
      });
      for (const label of ['0.5', '1', '2', '5', '10', '30', '+Inf']) {
        deltas.push({ hourStart, carrier, figure: 'receipt-latency' as const, label, count: 100 });
      }
    }
  }
  await figures.addDeliveryFigures(deltas);
}
console.log(`  loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);

async function timed(what: string, run: () => Promise<unknown>): Promise<void> {
  await run(); // warm
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)]!;
  record({
    bench: BENCH,
    engine,
    metric: what,
    value: median,
    unit: 'ms',
    note: `median of ${RUNS}, ${MESSAGES} messages`,
  });
}

await timed('account dashboard, 30 days', () =>
  readAccountDashboard(store, { accountId: accounts[0]!.id, timeZone: 'Asia/Bangkok', nowMs }),
);
const days = lastDaysIn('Asia/Bangkok', nowMs, 30);
const boundaries = [...days.map((d) => d.startMs), days.at(-1)!.endMs];
const measured = accounts[0]!.id;
await timed('  sends and recipients per day', () => store.accountSendDays(measured, boundaries));
await timed('  delivery outcomes per day', () => store.accountDeliveryDays(measured, boundaries));
await timed('  latest 5 messages (and the list total)', () =>
  listMessages(store, measured, { offset: 0, limit: 5, fromMs: boundaries[0] }),
);
await timed('platform dashboard, 30 days × 24 h × 4 carriers', () =>
  readPlatformDashboard(store, { timeZone: 'Asia/Bangkok', nowMs }),
);

await database.close();
await bench.drop();
