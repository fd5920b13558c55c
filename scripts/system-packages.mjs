// The Debian packages that Nok's build and tests need, in one list, and their installation:
// `npm test` asks for the groups its test files need, the dependency check for `build` before
// it runs `npm ci`, and `.ci/run` for all of them.
//
//   node scripts/system-packages.mjs [group…]      (no group: every group)
//
// A package is present when dpkg says it is installed. When some are missing: as root, apt-get
// installs them; otherwise it prints the one command to run and exits 1. Not on Debian (no
// dpkg-query), it says what it could not check and exits 0: the tests then name what they lack.
// Only node: modules here, so that it runs before `npm ci` has installed anything.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Each group: why it is needed, and its packages. */
export const SYSTEM_PACKAGES = {
  // node-gyp compiles better-sqlite3 from source during `npm ci` when no prebuilt binary is
  // fetched.
  build: { for: 'npm ci (better-sqlite3 is compiled)', packages: ['g++', 'make', 'python3'] },
  // The console's browser tests (test/browser/) drive /usr/bin/chromium through playwright-core,
  // which never downloads a browser of its own; they check that Thai text is drawn with a Thai
  // font (Loma, Garuda, Waree, … listed by fontconfig's fc-list).
  browser: {
    for: 'the browser tests (test/browser/)',
    packages: ['chromium', 'fontconfig', 'fonts-thai-tlwg'],
  },
  // SMPP peers we did not write, for the interoperability tests: Kannel's bearerbox and smsbox,
  // and the Perl module Net::SMPP.
  interop: {
    for: 'the interoperability tests (test/interop/)',
    packages: ['kannel', 'libnet-smpp-perl'],
  },
  // The PostgreSQL server and its client (psql, pg_isready) for the PostgreSQL suite, and
  // PgBouncer, which test/cli/pgbouncer.test.ts starts in transaction mode in front of it.
  postgres: {
    for: 'the PostgreSQL suite (NOK_TEST_PG_URL)',
    packages: ['postgresql', 'pgbouncer'],
  },
};

/** Whether dpkg says `name` is installed; undefined when there is no dpkg-query. */
function installed(name) {
  const query = spawnSync('dpkg-query', ['--show', '--showformat=${Status}', name], {
    encoding: 'utf8',
  });
  if (query.error) return undefined;
  return query.status === 0 && / installed$/.test(query.stdout.trim());
}

/**
 * Makes sure the packages of `groups` are installed. Returns 0 when they are (or cannot be
 * checked), 1 when some are missing and this process cannot install them (it has printed the
 * command), or apt-get's exit code.
 */
export function ensureSystemPackages(groups = Object.keys(SYSTEM_PACKAGES), log = console.log) {
  const unknown = groups.filter((group) => !(group in SYSTEM_PACKAGES));
  if (unknown.length > 0) {
    log(
      `Unknown group ${unknown.join(', ')}: the groups are ${Object.keys(SYSTEM_PACKAGES).join(', ')}`,
    );
    return 2;
  }
  const wanted = [...new Set(groups.flatMap((group) => SYSTEM_PACKAGES[group].packages))];
  const states = wanted.map((name) => ({ name, installed: installed(name) }));
  if (states.some((state) => state.installed === undefined)) {
    log(`dpkg-query not found: not Debian, so these packages are not checked: ${wanted.join(' ')}`);
    return 0;
  }
  const missing = states.filter((state) => !state.installed).map((state) => state.name);
  if (missing.length === 0) {
    log(`System packages present: ${wanted.join(' ')}`);
    return 0;
  }
  const why = groups
    .filter((group) => SYSTEM_PACKAGES[group].packages.some((name) => missing.includes(name)))
    .map((group) => SYSTEM_PACKAGES[group].for)
    .join(', ');
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', ...missing];
  if (process.getuid?.() !== 0) {
    log(
      `Missing Debian packages for ${why}: ${missing.join(' ')}. Install them with:\n\n` +
        `  sudo apt-get update && sudo ${install.join(' ')}\n`,
    );
    return 1;
  }
  log(`Installing Debian packages for ${why}: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const command of [['apt-get', 'update'], install]) {
    const run = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureSystemPackages(
    process.argv.length > 2 ? process.argv.slice(2) : undefined,
  );
}
