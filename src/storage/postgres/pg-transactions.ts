import type pg from 'pg';

const RETRYABLE = new Set(['40P01', '40001']);

/** One statement on its own (atomic by itself); retried when chosen as a deadlock's victim. */
export async function autocommit<R extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw error;
    }
  }
}

/** One transaction; retried whole when PostgreSQL chose it as a deadlock's victim. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>) {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw error;
    } finally {
      client.release();
    }
  }
}
