import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { Harness } from '../support/harness.js';
import type { TestEngine } from '../support/engines.js';
import { migrate } from '../../src/storage/migrate.js';
import { openDatabase } from '../../src/storage/open-database.js';
import type { PgCluster } from '../support/pg-cluster.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

/** An engine whose databases live in a PostgreSQL cluster of the test's own (pg-cluster.ts). */
export function clusterEngine(cluster: PgCluster): TestEngine {
  return {
    name: 'postgres',
    async create() {
      const database = openDatabase(cluster.url);
      await migrate(database);
      return { database, url: cluster.url, drop: () => database.close() };
    },
  };
}

/** A logger whose lines the test reads: `lines()` are the JSON log lines so far. */
export function capturingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines: () => lines };
}

/** Numbers 66810000000 + from … + count - 1, distinct and valid. */
export function msisdns(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `6681${String(from + i).padStart(7, '0')}`);
}

/** The account's balance, its ledger's sum and rows: balance = sum, every time. */
export async function moneyOf(h: Harness, accountId: number) {
  const account = await h.store.findAccount(accountId);
  const rows = await fromLedger(h.db.database.db)
    .select(['delta', 'reason', 'message_id'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  const sum = rows.reduce((total, row) => total + Number(row.delta), 0);
  assert.equal(account!.balance, sum, 'balance = sum of the ledger');
  return { balance: account!.balance, rows };
}

/** Recipient rows of a message: how many, and how many distinct seqs. */
export async function recipientRows(h: Harness, messageId: number) {
  const rows = await h.db.database.db
    .selectFrom('recipients')
    .select(['seq'])
    .where('message_id', '=', messageId)
    .execute();
  return { count: rows.length, distinct: new Set(rows.map((r) => r.seq)).size };
}
