import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { serverBuildProblem } from '../../scripts/server-build.mjs';

describe('whether dist/src is built from src/ as it is', () => {
  let root: string;
  /** Writes a file of the project, changed `ageS` seconds ago. */
  const file = (path: string, ageS: number) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    const at = Date.now() / 1000 - ageS;
    utimesSync(full, at, at);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'nok-server-build-'));
    file('tsconfig.json', 100);
    file('src/cli/nok.ts', 100);
    file('src/main.ts', 100);
    file('src/main.test.ts', 100);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is when every source has its output, none older than a source', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 10);
    assert.equal(serverBuildProblem(root), null);
  });

  it('is not before the first build', () => {
    assert.equal(serverBuildProblem(root), 'dist/src is not built');
  });

  it('is not when a source changed after its output was written', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 10);
    file('src/main.ts', 5);
    assert.equal(serverBuildProblem(root), 'dist/src is older than src/');
  });

  it('is not when the compiler settings changed since', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 10);
    file('tsconfig.json', 5);
    assert.equal(serverBuildProblem(root), 'dist/src is older than src/');
  });

  it('is not when one output is older than a source, however new the others', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 200);
    assert.equal(serverBuildProblem(root), 'dist/src is older than src/');
  });

  it('is not when a source has no output yet', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 10);
    file('src/new.ts', 100);
    assert.match(serverBuildProblem(root) ?? '', /^dist\/src has no dist\/src\/new\.js$/);
  });

  it('looks past test files, which the build leaves out', () => {
    file('dist/src/cli/nok.js', 10);
    file('dist/src/main.js', 10);
    file('src/main.test.ts', 1);
    assert.equal(serverBuildProblem(root), null);
  });
});
