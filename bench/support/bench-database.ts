// A fresh, empty database for one bench run — a SQLite file in a temp dir, or a PostgreSQL schema
// of its own — and a separate read connection the bench uses to watch materialisation. The Nok
// child migrates it on start.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type BenchEngine = 'sqlite' | 'postgres';

export interface BenchDatabase {
  readonly engine: BenchEngine;
  /** NOK_DATABASE_URL for the server. */
  readonly url: string;
  /** `materialised_upto` and `recipient_total` of a message, read outside the server. */
  progress(uuid: string): Promise<{ materialisedUpto: number; recipientTotal: number }>;
  /** Bytes on disk (SQLite file + WAL) or of the schema's relations (PostgreSQL). */
  sizeBytes(): Promise<number>;
  /**
   * CPU seconds (user + system) the database server has used so far: PostgreSQL's whole cluster
   * when it runs on this machine (its postmaster, with the backends it has reaped, and its live
   * processes, read from /proc; anything else using that cluster counts too). Null for SQLite,
   * which runs inside Nok, and for a server /proc cannot see.
   */
  serverCpuSeconds(): Promise<number | null>;
  drop(): Promise<void>;
}

const PROGRESS_SQL = 'SELECT materialised_upto, recipient_total FROM messages WHERE uuid = $1';

export function benchEngine(): { engine: BenchEngine; pgUrl?: string } {
  const engine = (process.env.NOK_BENCH_ENGINE ?? 'sqlite') as BenchEngine;
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error(`NOK_BENCH_ENGINE must be sqlite or postgres`);
  const pgUrl = process.env.NOK_BENCH_PG_URL ?? process.env.NOK_TEST_PG_URL;
  if (engine === 'postgres' && !pgUrl)
    throw new Error('NOK_BENCH_ENGINE=postgres needs NOK_BENCH_PG_URL');
  return { engine, pgUrl };
}

export async function createBenchDatabase(
  engine: BenchEngine,
  pgUrl?: string,
): Promise<BenchDatabase> {
  return engine === 'sqlite' ? createSqlite() : createPostgres(pgUrl!);
}

function createSqlite(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'nok-bench-'));
  const url = join(dir, 'nok.db');
  let reader: BetterSqlite3.Database | undefined;
  // Opened on first use: the file exists once the server has migrated it.
  const read = () => (reader ??= new BetterSqlite3(url, { readonly: true, fileMustExist: true }));
  return {
    engine: 'sqlite',
    url,
    async progress(uuid) {
      const row = read().prepare(PROGRESS_SQL.replace('$1', '?')).get(uuid) as
        { materialised_upto: number; recipient_total: number } | undefined;
      if (!row) throw new Error(`message ${uuid} not found`);
      return { materialisedUpto: row.materialised_upto, recipientTotal: row.recipient_total };
    },
    async sizeBytes() {
      const row = read()
        .prepare('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()')
        .get() as {
        n: number;
      };
      return row.n;
    },
    async serverCpuSeconds() {
      return null;
    },
    async drop() {
      reader?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createPostgres(baseUrl: string): Promise<BenchDatabase> {
  const schema = `nok_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  // pg (and libpq) pass `options` as startup options: every connection of the server's pool
  // starts with this search_path, so its unqualified table names land in the fresh schema.
  const url = withSearchPath(baseUrl, schema);
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  return {
    engine: 'postgres',
    url,
    async progress(uuid) {
      const result = await reader.query(PROGRESS_SQL, [uuid]);
      const row = result.rows[0] as
        { materialised_upto: string; recipient_total: string } | undefined;
      if (!row) throw new Error(`message ${uuid} not found`);
      return {
        materialisedUpto: Number(row.materialised_upto),
        recipientTotal: Number(row.recipient_total),
      };
    },
    async sizeBytes() {
      const result = await reader.query(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number((result.rows[0] as { n: string }).n);
    },
    async serverCpuSeconds() {
      const result = await reader.query('SELECT pg_backend_pid() AS pid');
      return clusterCpuSeconds(Number((result.rows[0] as { pid: number }).pid));
    },
    async drop() {
      await reader.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

function withSearchPath(baseUrl: string, schema: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // URLSearchParams writes spaces as '+', which pg-connection-string does not decode.
  return url
    .toString()
    .replace(/options=[^&]*/, `options=${encodeURIComponent(`-c search_path=${schema}`)}`);
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name: state is [0], ppid [1], utime [11]. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The CPU of the cluster a backend belongs to, from /proc (see `serverCpuSeconds`). */
function clusterCpuSeconds(backendPid: number): number | null {
  const backend = statFields(backendPid);
  if (!backend) return null;
  const postmaster = Number(backend[1]);
  const own = statFields(postmaster);
  if (!own) return null;
  // utime, stime, cutime, cstime: its own time and that of the children it has waited for.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === postmaster)
      ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}
