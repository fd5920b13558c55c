import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SYSTEM_PACKAGES } from '../../scripts/system-packages.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/system-packages.mjs', import.meta.url));

/**
 * Runs the script as a user that is not root (nobody, when the tests run as root), against a
 * dpkg database of the test's own (dpkg's DPKG_ADMINDIR), so that it finds exactly what the
 * test says is installed.
 */
function runWithoutRoot(dpkgDir: string, groups: string[]) {
  const asNobody =
    process.getuid?.() === 0
      ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath]
      : [process.execPath];
  const result = spawnSync(asNobody[0]!, [...asNobody.slice(1), SCRIPT, ...groups], {
    encoding: 'utf8',
    env: { ...process.env, DPKG_ADMINDIR: dpkgDir },
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

function dpkgStatus(installed: readonly string[]): string {
  return installed
    .map(
      (name) => `Package: ${name}\nStatus: install ok installed\nVersion: 1\nArchitecture: all\n`,
    )
    .join('\n');
}

describe('the system packages, without root', () => {
  let dpkgDir: string;
  before(() => {
    dpkgDir = mkdtempSync(join(tmpdir(), 'nok-dpkg-'));
    chmodSync(dpkgDir, 0o755);
  });
  after(() => rmSync(dpkgDir, { recursive: true, force: true }));

  it('prints the one command that installs what is missing, and exits 1', () => {
    writeFileSync(join(dpkgDir, 'status'), dpkgStatus(['fontconfig']), { mode: 0o644 });
    const { code, output } = runWithoutRoot(dpkgDir, ['browser', 'postgres']);
    assert.equal(code, 1, output);
    assert.match(output, /Missing Debian packages for the browser tests .*PostgreSQL suite/);
    assert.match(
      output,
      /^ {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium fonts-thai-tlwg postgresql pgbouncer$/m,
    );
  });

  it('says they are present and exits 0 when dpkg has them all', () => {
    const every = Object.values(SYSTEM_PACKAGES).flatMap((group) => group.packages);
    writeFileSync(join(dpkgDir, 'status'), dpkgStatus(every), { mode: 0o644 });
    const { code, output } = runWithoutRoot(dpkgDir, []);
    assert.equal(code, 0, output);
    assert.equal(output.trim(), `System packages present: ${every.join(' ')}`);
  });

  it('refuses a group it does not know, naming the groups', () => {
    const { code, output } = runWithoutRoot(dpkgDir, ['browsers']);
    assert.equal(code, 2);
    assert.match(
      output,
      /Unknown group browsers: the groups are build, browser, interop, postgres/,
    );
  });
});
