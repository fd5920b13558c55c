// Whether dist/src is older than what it is built from, and the build itself. Tests that run the
// `nok` command run the built one (dist/src/cli/nok.js), which starts in a fraction of the time
// that loading the source through tsx takes; the test runner builds it first when it is missing
// or stale, and the tests refuse a stale build (run through `npm test`, or run
// `npm run build:server` first).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** The built `nok` command, relative to the repository root. */
export const BUILT_NOK = join('dist', 'src', 'cli', 'nok.js');

/** What decides the build besides src/: the compiler's settings and the lockfile (its version). */
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The .ts files tsconfig.build.json compiles: src/ without its test files. */
function serverSources(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...serverSources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
      found.push(path);
  }
  return found;
}

/**
 * Null when dist/src is built from src/ as it is now: every source has its .js, and none of them
 * is older than the newest source or setting. Else why not. Output of a source since removed is
 * not looked at (nothing imports it).
 */
export function serverBuildProblem(root = repositoryRoot) {
  if (!existsSync(join(root, BUILT_NOK))) return 'dist/src is not built';
  let changedAt = 0;
  for (const setting of SETTINGS) {
    const path = join(root, setting);
    if (existsSync(path)) changedAt = Math.max(changedAt, statSync(path).mtimeMs);
  }
  let builtAt = Infinity;
  for (const source of serverSources(join(root, 'src'))) {
    changedAt = Math.max(changedAt, statSync(source).mtimeMs);
    const output = join(root, 'dist', relative(root, source).replace(/\.ts$/, '.js'));
    if (!existsSync(output)) return `dist/src has no ${relative(root, output)}`;
    builtAt = Math.min(builtAt, statSync(output).mtimeMs);
  }
  return changedAt > builtAt ? 'dist/src is older than src/' : null;
}

/** Runs `tsc -p tsconfig.build.json` (npm run build:server); throws when it fails. */
export function buildServer(root = repositoryRoot) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the server failed (exit ${result.status})`);
}
