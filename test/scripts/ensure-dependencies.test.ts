import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dependenciesProblem, ensureDependencies } from '../../scripts/ensure-dependencies.mjs';

/**
 * A project of its own in a temp dir, depending on a package in a folder beside it (`file:`), so
 * that `npm ci` installs it for real without the network.
 */
function makeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'nok-ensure-dependencies-'));
  mkdirSync(join(root, 'greeting'));
  writeFileSync(
    join(root, 'greeting', 'package.json'),
    JSON.stringify({ name: 'greeting', version: '1.0.0' }),
  );
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'project',
      version: '1.0.0',
      dependencies: { greeting: 'file:greeting' },
    }),
  );
  execFileSync(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
  return root;
}

const lines: string[] = [];
const log = (line: string) => lines.push(line);

describe('installing the dependencies before start and tests', () => {
  let root: string;
  before(() => {
    root = makeProject();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('installs them with npm ci when node_modules is missing, and then finds them fresh', () => {
    assert.equal(dependenciesProblem(root), 'node_modules is missing');
    assert.equal(ensureDependencies(root, log), 0);
    assert.match(
      lines.join('\n'),
      /node_modules is missing: installing the dependencies \(npm ci\)/,
    );
    assert.equal(dependenciesProblem(root), null);
    lines.length = 0;
    assert.equal(ensureDependencies(root, log), 0);
    assert.deepEqual(lines, [], 'nothing to do, nothing said');
  });

  it('finds node_modules stale when the lock file locks another version', () => {
    const lockPath = join(root, 'package-lock.json');
    const original = readFileSync(lockPath, 'utf8');
    const lock = JSON.parse(original);
    lock.packages['node_modules/greeting'].version = '1.0.1';
    writeFileSync(lockPath, JSON.stringify(lock));
    assert.match(
      dependenciesProblem(root) ?? '',
      /node_modules\/greeting is installed at .* where the lock file has 1\.0\.1/,
    );
    writeFileSync(lockPath, original);
    assert.equal(dependenciesProblem(root), null);
  });

  it('finds it stale when a locked package is not installed, or one is installed unlocked', () => {
    const lockPath = join(root, 'package-lock.json');
    const original = readFileSync(lockPath, 'utf8');
    const lock = JSON.parse(original);
    lock.packages['node_modules/other'] = { version: '2.0.0', resolved: 'x', integrity: 'y' };
    writeFileSync(lockPath, JSON.stringify(lock));
    assert.equal(dependenciesProblem(root), 'node_modules/other is locked but not installed');
    // npm leaves out optional packages of other platforms.
    lock.packages['node_modules/other'].optional = true;
    writeFileSync(lockPath, JSON.stringify(lock));
    assert.equal(dependenciesProblem(root), null);
    delete lock.packages['node_modules/greeting'];
    writeFileSync(lockPath, JSON.stringify(lock));
    assert.equal(dependenciesProblem(root), 'node_modules/greeting is installed but not locked');
    writeFileSync(lockPath, original);
    rmSync(join(root, 'node_modules', '.package-lock.json'));
    assert.equal(dependenciesProblem(root), 'node_modules has no record of an install');
    assert.equal(ensureDependencies(root, log), 0);
    assert.equal(dependenciesProblem(root), null);
  });

  it("finds this repository's own node_modules fresh", () => {
    assert.equal(dependenciesProblem(), null);
  });
});

describe('installing the dependencies without root, on a machine without the build packages', () => {
  it('prints the command that installs them and stops before npm ci', () => {
    // A copy of the two scripts beside a project of its own, readable by nobody, and a dpkg
    // database of the test's own (dpkg's DPKG_ADMINDIR) in which nothing is installed.
    const root = makeProject();
    const dpkgDir = mkdtempSync(join(tmpdir(), 'nok-dpkg-'));
    try {
      writeFileSync(join(dpkgDir, 'status'), '', { mode: 0o644 });
      mkdirSync(join(root, 'scripts'));
      for (const name of ['ensure-dependencies.mjs', 'system-packages.mjs']) {
        const from = fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url));
        copyFileSync(from, join(root, 'scripts', name));
      }
      for (const dir of [root, dpkgDir]) chmodSync(dir, 0o755);
      const asNobody =
        process.getuid?.() === 0
          ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath]
          : [process.execPath];
      const result = spawnSync(
        asNobody[0]!,
        [...asNobody.slice(1), join(root, 'scripts', 'ensure-dependencies.mjs')],
        { encoding: 'utf8', env: { ...process.env, DPKG_ADMINDIR: dpkgDir } },
      );
      const output = result.stdout + result.stderr;
      assert.equal(result.status, 1, output);
      assert.match(output, /node_modules is missing: installing the dependencies \(npm ci\)/);
      assert.match(
        output,
        /^ {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends g\+\+ make python3$/m,
      );
      assert.equal(existsSync(join(root, 'node_modules')), false, 'npm ci did not run');
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(dpkgDir, { recursive: true, force: true });
    }
  });
});
