import type { Kysely } from 'kysely';
import type {
  DispatchersView,
  PublishedStatus,
  StatusBoard,
} from '../domain/delivery/status-board.js';
import type { Database } from './engine.js';
import type { Tables } from './schema.js';

/**
 * The status board in `dispatcher_statuses` (ADR 0035). Each statement runs on its own,
 * outside delivery's transactions; a row is a few hundred bytes per carrier.
 */
export function statusBoardStore(db: Kysely<Tables>): StatusBoard {
  return {
    async publish(entry) {
      const row = {
        owner: entry.owner,
        started_at: entry.startedAt,
        written_at: entry.writtenAt,
        status: entry.status,
      };
      await db
        .insertInto('dispatcher_statuses')
        .values(row)
        .onConflict((oc) =>
          oc.column('owner').doUpdateSet({ written_at: row.written_at, status: row.status }),
        )
        .execute();
    },
    async remove(owner) {
      await db.deleteFrom('dispatcher_statuses').where('owner', '=', owner).execute();
    },
    async read(sinceMs) {
      const rows = await db
        .selectFrom('dispatcher_statuses')
        .selectAll()
        .where('written_at', '>=', sinceMs)
        .orderBy('owner')
        .execute();
      return rows.map((row): PublishedStatus => ({
        owner: row.owner,
        startedAt: row.started_at,
        writtenAt: row.written_at,
        status: row.status,
      }));
    },
    async purge(beforeMs) {
      const result = await db
        .deleteFrom('dispatcher_statuses')
        .where('written_at', '<', beforeMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The console's carriers page over this store: the board, and delivery's queue depth. */
export function dispatchersViewOf(database: Database): DispatchersView {
  const board = statusBoardStore(database.db);
  return {
    published: (sinceMs) => board.read(sinceMs),
    queueDepth: () => database.delivery.queueDepth(),
  };
}
