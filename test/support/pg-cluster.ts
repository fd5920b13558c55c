import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { waitUntil } from '../interop/wait-until.js';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL cluster of the test's own, for fault tests that stop and start the server: made
 * by the installed server binaries (Debian's postgresql package) in a temporary directory, on
 * a free loopback port, trust authentication. Never the shared server of NOK_TEST_PG_URL.
 */
export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** Fast shutdown (SIGINT): open connections are cut, as in a server restart. */
  stop(): Promise<void>;
  /**
   * Starts the server again on the same port and data (if it is not running); resolves once it
   * accepts queries.
   */
  start(): Promise<void>;
  /** Stops the server (if running) and deletes its files. */
  destroy(): Promise<void>;
}

export async function createPgCluster(): Promise<PgCluster> {
  const bin = serverBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'nok-pg-'));
  const data = join(dir, 'data');
  // initdb and postgres refuse to run as root (CI runs as root): then they run as the
  // postgres user the server package created, in a directory it owns.
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (user) chownSync(dir, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid } : {};

  // A copy of a cluster made once per server version and user (initdb takes seconds, far
  // more on a loaded machine; copying its result takes milliseconds).
  const copy = spawnSync('cp', ['-a', clusterTemplate(bin, user), data], { encoding: 'utf8' });
  if (copy.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`copying the cluster template failed: ${copy.stderr}`);
  }

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;
  let log = '';

  async function start(): Promise<void> {
    if (server && server.exitCode === null) return;
    const child = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=50',
      ],
      { ...as, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    server = child;
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`postgres exited: ${log}`);
        return accepts(url);
      },
      15_000,
      () => `postgres on port ${port} not ready: ${log}`,
    );
  }

  async function stop(): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    await exited;
  }

  await start();
  return {
    url,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The data directory initdb makes, kept in the temporary directory for every later cluster of
 * the same server and user. Made in a directory of its own and renamed into place, so test
 * processes making it at once do not see a half-made one.
 */
function clusterTemplate(bin: string, user: { uid: number; gid: number } | undefined): string {
  const template = join(
    tmpdir(),
    `nok-pg-template-${basename(dirname(bin))}-${user?.uid ?? process.getuid?.() ?? 0}`,
  );
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const making = mkdtempSync(join(tmpdir(), 'nok-pg-making-'));
  if (user) chownSync(making, user.uid, user.gid);
  const data = join(making, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...(user ?? {}), encoding: 'utf8' },
  );
  if (init.status !== 0) {
    rmSync(making, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr}`);
  }
  try {
    renameSync(data, template);
  } catch {
    // Another test process made it first.
  }
  rmSync(making, { recursive: true, force: true });
  return template;
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      'No PostgreSQL server binaries under /usr/lib/postgresql: apt-get install postgresql (.ci/run installs it)',
    );
  }
  return join(root, majors[0]!, 'bin');
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('Running as root and there is no postgres user to run the server as');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
