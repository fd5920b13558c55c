// The interop tests need programs from Debian packages. A missing one fails the test, with what
// to install, rather than skipping it: a skipped interop test would look like a passing one.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian puts daemons such as bearerbox; not on every user's PATH. */
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The absolute path of `command`, from PATH or an sbin directory; throws naming the package. */
export function requireCommand(command: string, debianPackage: string): string {
  const directories = [...(process.env.PATH ?? '').split(delimiter), ...SBIN];
  for (const directory of directories) {
    if (directory === '') continue;
    const path = join(directory, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  throw new Error(
    `${command} is not installed: apt-get install ${debianPackage} (.ci/run installs it)`,
  );
}

/** Throws naming the package unless `perl -M<module> -e1` succeeds. */
export function requirePerlModule(module: string, debianPackage: string): void {
  const perl = requireCommand('perl', 'perl-base');
  const check = spawnSync(perl, [`-M${module}`, '-e1'], { encoding: 'utf8' });
  if (check.status !== 0) {
    throw new Error(
      `the perl module ${module} is not installed: apt-get install ${debianPackage}` +
        ` (.ci/run installs it)\n${check.stderr}`,
    );
  }
}
