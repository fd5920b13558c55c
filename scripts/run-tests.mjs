// Runs every *.test.ts under src/ and test/ with Node's test runner (Node 20 has no --test globs).
// Extra arguments are passed through, e.g. `npm test -- --test-name-pattern=cancel`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
const files = explicit.length > 0 ? explicit : ['src', 'test'].flatMap(findTests).sort();

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
