// Installs what the tests need first: the npm dependencies when node_modules is missing or stale
// (ensure-dependencies.mjs), then the Debian packages of the files asked for (system-packages.mjs:
// Chromium and Thai fonts for test/browser/, Kannel and Net::SMPP for test/interop/, PostgreSQL
// when NOK_TEST_PG_URL names this machine). Then it runs every *.test.ts under src/ and test/ with Node's test runner (Node 20 has no --test
// globs), the spec reporter on the terminal and a TAP copy whose totals close the run as a
// plain "N passed, N failed" line.
// Extra arguments pass through, e.g. `npm test -- --test-name-pattern=cancel test/api/cancel.test.ts`;
// a directory stands for the *.test.ts files under it (`npm test -- test/api`): Node 20 given a
// directory runs nothing and reports success.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { buildConsole, consoleBuildProblem, repositoryRoot } from './console-build.mjs';
import { ensureDependencies } from './ensure-dependencies.mjs';
import { buildServer, serverBuildProblem } from './server-build.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const installed = ensureDependencies();
if (installed !== 0) process.exit(installed);

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const passThrough = process.argv.slice(2);
const explicit = passThrough.filter((arg) => !arg.startsWith('-'));
const flags = passThrough.filter((arg) => arg.startsWith('-'));
// The longest files start first, so that the run does not end waiting on one of them alone: a
// browser suite takes minutes beside others, most files take seconds. How long each took last is
// in test/file-durations.json (scripts/file-durations.mjs writes it); a file not in it yet starts
// before those that are, as it may be long.
const durationsFile = join(repositoryRoot, 'test', 'file-durations.json');
const durations = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
const secondsOf = (file) =>
  durations[relative(repositoryRoot, resolve(file)).split(sep).join('/')] ?? Infinity;
const files = (explicit.length > 0 ? explicit : ['src', 'test'])
  .flatMap((path) =>
    existsSync(path) && statSync(path).isDirectory() ? findTests(path).sort() : [path],
  )
  .map((file, order) => ({ file, order, seconds: secondsOf(file) }))
  .sort((a, b) => (b.seconds === a.seconds ? a.order - b.order : b.seconds - a.seconds))
  .map(({ file }) => file);
if (files.length === 0) {
  console.error(`No *.test.ts file under ${explicit.join(', ')}`);
  process.exit(1);
}

const groups = [
  [/(^|[\\/])test[\\/]browser([\\/]|$)/, 'browser'],
  [/(^|[\\/])test[\\/]interop([\\/]|$)/, 'interop'],
]
  .filter(([pattern]) => files.some((file) => pattern.test(file)))
  .map(([, group]) => group);
if (pgOnThisMachine(process.env.NOK_TEST_PG_URL)) groups.push('postgres');
if (groups.length > 0) {
  const packages = ensureSystemPackages(groups);
  if (packages !== 0) process.exit(packages);
}

/** Whether the PostgreSQL suite is asked for on this machine's server, which its package runs. */
function pgOnThisMachine(url) {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return ['', 'localhost', '127.0.0.1', '[::1]'].includes(host);
  } catch {
    return false;
  }
}

// Tests that run the `nok` command (test/cli/nok-process.ts: runNok, spawnNok) run the built one,
// dist/src/cli/nok.js: build it first when it is missing or older than src/.
const runsNok = (file) =>
  existsSync(file) && /\b(runNok|spawnNok)\(/.test(readFileSync(file, 'utf8'));
if (files.some(runsNok)) {
  const problem = serverBuildProblem();
  if (problem) {
    console.log(`${problem}: building it for the tests that run nok`);
    buildServer();
  }
}

// Browser tests drive the built console, and `nok start`'s test fetches it: build it first when
// it is missing or stale.
const needsConsole = [
  /(^|[\\/])test[\\/]browser([\\/]|$)/,
  /(^|[\\/])test[\\/]cli[\\/]start\.test\.ts$/,
];
if (files.some((file) => needsConsole.some((pattern) => pattern.test(file)))) {
  const problem = consoleBuildProblem();
  if (problem) {
    console.log(`${problem}: building it for the tests that use it`);
    buildConsole();
  }
}

// Files run side by side, one more than the cores: most of a file's time is spent waiting on a
// database, a socket or Chromium, and each starts a process of its own. Every file uses its own
// ports, SQLite files and PostgreSQL schemas, so they do not meet. `--test-concurrency=N` wins.
const concurrency = flags.some((flag) => flag.startsWith('--test-concurrency'))
  ? []
  : [`--test-concurrency=${availableParallelism() + 1}`];

const dir = mkdtempSync(join(tmpdir(), 'nok-tests-'));
const tap = join(dir, 'results.tap');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...concurrency,
    ...flags,
    ...files,
  ],
  { stdio: 'inherit' },
);

const totals = readFileSync(tap, 'utf8');
rmSync(dir, { recursive: true, force: true });
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(totals)?.[1] ?? 0);
const skipped = count('skipped') + count('todo');
console.log(
  `\n${count('pass')} passed, ${count('fail') + count('cancelled')} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(result.status ?? 1);
