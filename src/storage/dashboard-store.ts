import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  DELIVERY_RATIO_STATUSES,
  type DashboardStore,
  type DeliveryFigure,
  type DeliveryFiguresStore,
  type DeliveryRatioStatus,
} from '../domain/dashboard/dashboard-store.js';
import type { Db, Tables } from './schema.js';

/**
 * The bucket of `column` among day boundaries, as a CASE over literal instants: portable to
 * both engines, and the same text in SELECT and GROUP BY (bound parameters would differ in
 * PostgreSQL's eyes). The boundaries are integers the server computed, never user text.
 */
function bucketOf(column: string, boundaries: readonly number[]): RawBuilder<number> {
  for (const b of boundaries) {
    if (!Number.isSafeInteger(b)) throw new Error(`a day boundary must be an integer, not ${b}`);
  }
  const inner = boundaries.slice(1, -1);
  if (inner.length === 0) return sql<number>`0`;
  const whens = inner.map(
    (b, i) => sql`WHEN ${sql.ref(column)} < ${sql.lit(b)} THEN ${sql.lit(i)}`,
  );
  return sql<number>`CASE ${sql.join(whens, sql` `)} ELSE ${sql.lit(inner.length)} END`;
}

function windowOf(boundaries: readonly number[]): { from: number; to: number } {
  return { from: boundaries[0]!, to: boundaries.at(-1)! };
}

export function dashboardStore(db: Db): DashboardStore {
  return {
    // messages_account_created: an index range over the account's window.
    async accountSendDays(accountId, boundaries) {
      const { from, to } = windowOf(boundaries);
      const rows = await db
        .selectFrom('messages')
        .select([
          bucketOf('created_at', boundaries).as('bucket'),
          sql<number>`count(*)`.as('sends'),
          sql<number>`coalesce(sum(recipient_total), 0)`.as('recipients'),
        ])
        .where('account_id', '=', accountId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .groupBy(sql`1`)
        .execute();
      return rows.map((r) => ({
        bucket: Number(r.bucket),
        sends: Number(r.sends),
        recipients: Number(r.recipients),
      }));
    },

    // The messages of the window and their counter rows (message_counts' key): never the
    // recipients table, however many recipients the messages had.
    async accountDeliveryDays(accountId, boundaries) {
      const { from, to } = windowOf(boundaries);
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('message_counts as c', 'c.message_id', 'm.id')
        .select([
          bucketOf('m.created_at', boundaries).as('bucket'),
          'c.status',
          sql<number>`sum(c.count)`.as('count'),
        ])
        .where('m.account_id', '=', accountId)
        .where('m.created_at', '>=', from)
        .where('m.created_at', '<', to)
        .where('c.status', 'in', [...DELIVERY_RATIO_STATUSES])
        .groupBy([sql`1`, 'c.status'])
        .execute();
      return rows.map((r) => ({
        bucket: Number(r.bucket),
        status: r.status as DeliveryRatioStatus,
        count: Number(r.count),
      }));
    },

    async deliveryFigureDays(boundaries) {
      const { from, to } = windowOf(boundaries);
      const rows = await db
        .selectFrom('delivery_figures')
        .select([
          bucketOf('hour_start', boundaries).as('bucket'),
          'carrier',
          'figure',
          'label',
          sql<number>`sum(count)`.as('count'),
        ])
        .where('hour_start', '>=', from)
        .where('hour_start', '<', to)
        .groupBy([sql`1`, 'carrier', 'figure', 'label'])
        .execute();
      return rows.map((r) => ({
        bucket: Number(r.bucket),
        carrier: r.carrier,
        figure: r.figure as DeliveryFigure,
        label: r.label,
        count: Number(r.count),
      }));
    },
  };
}

/** Rows of one insert: 5 values each, well under SQLite's 32,766 variables of a statement. */
const FIGURES_PER_INSERT = 1000;

export function deliveryFiguresStore(db: Kysely<Tables>): DeliveryFiguresStore {
  return {
    // Every dispatcher process adds to the same rows: the upsert adds, never overwrites. One
    // transaction, so a flush that fails adds nothing and can be written again whole.
    async addDeliveryFigures(deltas) {
      if (deltas.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < deltas.length; i += FIGURES_PER_INSERT) {
          await trx
            .insertInto('delivery_figures')
            .values(
              deltas.slice(i, i + FIGURES_PER_INSERT).map((d) => ({
                hour_start: d.hourStart,
                carrier: d.carrier,
                figure: d.figure,
                label: d.label,
                count: d.count,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['hour_start', 'carrier', 'figure', 'label']).doUpdateSet({
                count: sql`delivery_figures.count + excluded.count`,
              }),
            )
            .execute();
        }
      });
    },
  };
}
