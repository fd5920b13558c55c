// A reporter for Node's test runner: how long each test file's tests took, in seconds, as the JSON
// that test/file-durations.json holds (files relative to the repository root, in path order). The
// test runner starts the longest files first by that table. Refresh it after a whole run on both
// engines, on a machine like CI's:
//
//   NOK_TEST_PG_URL=… npm test -- --test-reporter=./scripts/file-durations.mjs \
//     --test-reporter-destination=test/file-durations.json
//
// A file's time is the sum of its top-level tests and suites, which run one after another.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default async function* fileDurations(source) {
  const seconds = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file) continue;
    const path = relative(root, file).split('\\').join('/');
    seconds.set(path, (seconds.get(path) ?? 0) + details.duration_ms / 1000);
  }
  const table = Object.fromEntries(
    [...seconds.keys()].sort().map((path) => [path, Math.round(seconds.get(path) * 10) / 10]),
  );
  yield `${JSON.stringify(table, null, 2)}\n`;
}
