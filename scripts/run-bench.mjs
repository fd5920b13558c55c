// Runs every bench/*.bench.ts and prints a summary table. A bench that reads NOK_BENCH_ENGINE runs
// once per engine — SQLite always, PostgreSQL when NOK_BENCH_PG_URL (or NOK_TEST_PG_URL) is set;
// any other bench runs once. Benches are never part of `npm test`.
//
//   npm run bench                    every bench
//   npm run bench -- accept          only benches whose file name contains "accept"
//   npm run bench -- --engine=sqlite only that engine
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = join(ROOT, 'bench');

const args = process.argv.slice(2);
const onlyEngine = args.find((arg) => arg.startsWith('--engine='))?.slice('--engine='.length);
const filters = args.filter((arg) => !arg.startsWith('-'));
const pgUrl = process.env.NOK_BENCH_PG_URL ?? process.env.NOK_TEST_PG_URL;

const engines = ['sqlite', ...(pgUrl ? ['postgres'] : [])].filter(
  (e) => !onlyEngine || e === onlyEngine,
);
const files = readdirSync(BENCH_DIR)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();

function runBench(file, engine, resultsPath) {
  return new Promise((resolve) => {
    const env = { ...process.env, NOK_BENCH_RESULTS: resultsPath };
    if (engine) {
      env.NOK_BENCH_ENGINE = engine;
      if (pgUrl) env.NOK_BENCH_PG_URL = pgUrl;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH_DIR, file)], {
      cwd: ROOT,
      env,
      stdio: 'inherit',
    });
    // Ctrl-C reaches the child through the terminal's process group; wait for it to clean up.
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function summarise(figures) {
  if (figures.length === 0) return;
  const engineNames = [...new Set(figures.map((f) => f.engine))];
  const rows = new Map();
  for (const f of figures) {
    const key = `${f.bench}\u0000${f.metric}`;
    if (!rows.has(key))
      rows.set(key, { bench: f.bench, metric: f.metric, target: f.target ?? '', byEngine: {} });
    rows.get(key).byEngine[f.engine] = f;
  }
  const cell = (f) => (f ? `${formatFigure(f)}${f.met === false ? ' ✗' : ''}` : '');
  const table = [
    ['metric', ...engineNames, 'target'],
    ...[...rows.values()].map((r) => [
      r.metric,
      ...engineNames.map((e) => cell(r.byEngine[e])),
      r.target,
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row) =>
    row.map((text, i) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))).join('  ');
  console.log('\n== summary (✗ = target missed) ==');
  console.log(
    `${cpus().length} cores, shared by Nok, the database server and the load generator; ` +
      `load average at the end ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
  console.log(line(table[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table.slice(1)) console.log(line(row));
}

// As bench/support/report.ts formats a figure: `1.234 s`, or `p50 / p99 ms` for a latency.
function formatFigure({ value, unit, p50 }) {
  const digits = (v) =>
    unit === 'ms' ? (v < 10 ? 2 : 1) : unit === 's' ? 3 : unit === '×' ? 2 : 0;
  const text = `${value.toFixed(digits(value))} ${unit}`;
  return p50 === undefined ? text : `${p50.toFixed(digits(p50))} / ${text}`;
}

const dir = mkdtempSync(join(tmpdir(), 'nok-bench-results-'));
let failed = 0;
try {
  const resultsPath = join(dir, 'figures.jsonl');
  for (const file of files) {
    const perEngine = /NOK_BENCH_ENGINE|benchEngine\(/.test(
      readFileSync(join(BENCH_DIR, file), 'utf8'),
    );
    for (const engine of perEngine ? engines : [undefined]) {
      console.log(`\n### ${file}${engine ? ` on ${engine}` : ''}`);
      const code = await runBench(file, engine, resultsPath);
      if (code !== 0) {
        failed++;
        console.error(`### ${file}${engine ? ` on ${engine}` : ''} failed (exit ${code})`);
      }
    }
  }
  let figures = [];
  try {
    figures = readFileSync(resultsPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    // no bench wrote figures
  }
  summarise(figures);
  if (!pgUrl)
    console.log('\nPostgreSQL skipped: set NOK_BENCH_PG_URL (or NOK_TEST_PG_URL) to include it.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
