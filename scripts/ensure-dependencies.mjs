// Installs the npm dependencies when node_modules is missing or stale against package-lock.json,
// before anything imports from it: `npm start` and `npm test` run this first.
//
//   node scripts/ensure-dependencies.mjs
//
// node_modules matches the lock file when npm's record of what it installed there
// (node_modules/.package-lock.json, written by every install) has each locked package at its
// locked version and integrity, and nothing else. Packages marked optional may be absent: npm
// leaves out those of other platforms. Otherwise `npm ci` installs afresh, once the Debian
// packages it needs to compile better-sqlite3 are there (scripts/system-packages.mjs).
// Only node: modules here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemPackages } from './system-packages.mjs';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** Null when node_modules in `root` is what package-lock.json locks; else why not. */
export function dependenciesProblem(root = repositoryRoot) {
  const installedRecord = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(join(root, 'node_modules'))) return 'node_modules is missing';
  if (!existsSync(installedRecord)) return 'node_modules has no record of an install';
  const locked = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(installedRecord, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(locked)) {
    if (path === '') continue;
    const there = installed[path];
    if (!there) {
      if (entry.optional) continue;
      return `${path} is locked but not installed`;
    }
    for (const field of ['version', 'integrity', 'resolved']) {
      if (there[field] !== entry[field]) {
        return `${path} is installed at ${there[field] ?? 'no ' + field} where the lock file has ${entry[field] ?? 'none'}`;
      }
    }
  }
  const extra = Object.keys(installed).find((path) => !(path in locked));
  return extra ? `${extra} is installed but not locked` : null;
}

/** Runs `npm ci` when node_modules is missing or stale; returns the exit code to go on with. */
export function ensureDependencies(root = repositoryRoot, log = console.log) {
  const problem = dependenciesProblem(root);
  if (problem === null) return 0;
  log(`${problem}: installing the dependencies (npm ci)`);
  const systemPackages = ensureSystemPackages(['build'], log);
  if (systemPackages !== 0) return systemPackages;
  // Inside an npm script, the npm that runs it; else the one on PATH.
  const npm = process.env.npm_execpath
    ? [process.execPath, process.env.npm_execpath]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm'];
  const result = spawnSync(npm[0], [...npm.slice(1), 'ci'], {
    cwd: root,
    stdio: 'inherit',
    // playwright-core downloads nothing; the tests use Debian's Chromium. node-gyp compiles
    // better-sqlite3's two libraries side by side (JOBS), on every core.
    env: { JOBS: 'max', ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureDependencies();
}
