// Whether dist/console is older than what it is built from, and the build itself. The test
// runner builds the console before browser tests when it is missing or stale; the browser
// tests' support module refuses to run on a stale one (run through `npm test`, or run
// `npm run build:console` first).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** What the console is built from: its sources, the API contract it imports, the lockfile. */
const SOURCES = ['web', 'src/api/console/contract', 'package-lock.json'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

/** Null when dist/console is built from the sources as they are now; else why not. */
export function consoleBuildProblem(root = repositoryRoot) {
  const index = join(root, 'dist', 'console', 'index.html');
  if (!existsSync(index)) return 'dist/console is not built';
  const builtAt = statSync(index).mtimeMs;
  const changedAt = Math.max(...SOURCES.map((source) => newestChange(join(root, source))));
  return changedAt > builtAt ? 'dist/console is older than web/ or the console contract' : null;
}

/** Runs `vite build` for the console; throws when it fails. */
export function buildConsole(root = repositoryRoot) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the console failed (exit ${result.status})`);
}
