import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../cli/nok-process.js';

/** `npm test -- <args>`: the runner script, run from the repository root; its code and output. */
function runTests(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  // This file itself runs under `node --test`, which marks its children as test-runner children;
  // the runner under test must start as a top-level run.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/run-tests.mjs', ...args],
      { cwd: REPO_ROOT, env },
      (error, stdout) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? (error.code as number) : 0, stdout });
      },
    );
  });
}

describe('npm test', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'nok-run-tests-'));
    mkdirSync(join(dir, 'nested'));
    const file = (body: string) =>
      `import { it } from 'node:test';\nit('a test', () => { ${body} });\n`;
    writeFileSync(join(dir, 'passes.test.ts'), file(''));
    writeFileSync(join(dir, 'nested', 'fails.test.ts'), file("throw new Error('planted');"));
    writeFileSync(join(dir, 'helper.ts'), file("throw new Error('not a test file');"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every *.test.ts under a directory given on the command line, nested ones too', async () => {
    const { code, stdout } = await runTests([dir]);
    assert.match(stdout, /^1 passed, 1 failed$/m, stdout);
    assert.notEqual(code, 0);
  });

  it('runs a file given on the command line as it is', async () => {
    const { code, stdout } = await runTests([join(dir, 'passes.test.ts')]);
    assert.match(stdout, /^1 passed, 0 failed$/m, stdout);
    assert.equal(code, 0);
  });
});
