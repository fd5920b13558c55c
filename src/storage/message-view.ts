import { sql } from 'kysely';
import type { Message, RecipientRecord, Store } from '../domain/ports.js';
import { RECIPIENT_STATUSES, type RecipientStatus } from '../domain/statuses.js';
import type { Db } from './schema.js';
import { MESSAGE_COLUMNS, toMessage } from './rows.js';

type MessageRow = Parameters<typeof toMessage>[0];

type ViewRow = MessageRow &
  Record<`count_${RecipientStatus}`, number | string | null> & {
    r_seq: number | null;
    r_msisdn: string | null;
    r_status: string | null;
    r_updated_at: number | null;
  };

const messageColumns = sql.join(MESSAGE_COLUMNS.map((column) => sql.ref(`m.${column}`)));
// One aggregate row for the message's counts, computed once (the derived table is not
// correlated), whatever the number of rows it is joined to.
const countColumns = sql.join(
  RECIPIENT_STATUSES.map(
    (status) =>
      sql`sum(case when status = ${sql.lit(status)} then count end) as ${sql.ref(`count_${status}`)}`,
  ),
);

/**
 * The message, its counts and a keyset page of its rows in ONE statement: every read of a
 * message (GET /sms/{uuid}, a page of its recipients) costs one round trip, one wake-up of one
 * database backend. On a small machine those wake-ups, not the queries, were most of a page's
 * time (measured: 3 statements of ~0.3 ms each took 1.2 ms together).
 *
 * The LEFT JOIN answers the message's row when no recipient row is in range. The row range
 * stops at `afterSeq + rowLimit`, so no plan can touch more than the page (rows are dense up to
 * `materialised_upto`; see recipients-store.ts). Rows and `materialised_upto` come from one
 * snapshot.
 */
export function messageViewStore(db: Db): Pick<Store, 'messageViewByUuid'> {
  return {
    async messageViewByUuid(uuid, afterSeq, rowLimit) {
      const { rows } = await sql<ViewRow>`
        select ${messageColumns}, c.*,
          r.seq as r_seq, r.msisdn as r_msisdn, r.status as r_status, r.updated_at as r_updated_at
        from messages m
        cross join (
          select ${countColumns} from message_counts
          where message_id = (select id from messages where uuid = ${uuid})
        ) c
        left join recipients r
          on r.message_id = m.id
          and r.seq > ${afterSeq}
          and r.seq <= ${afterSeq + rowLimit}
          and r.seq <= m.materialised_upto
        where m.uuid = ${uuid}
        order by r.seq
        limit ${Math.max(rowLimit, 1)}
      `.execute(db);
      const first = rows[0];
      if (!first) return null;
      const counts = new Map<RecipientStatus, number>();
      for (const status of RECIPIENT_STATUSES) {
        const count = first[`count_${status}`];
        if (count !== null) counts.set(status, Number(count));
      }
      const recipients: RecipientRecord[] = [];
      for (const row of rows) {
        if (row.r_seq === null) continue;
        recipients.push({
          seq: Number(row.r_seq),
          msisdn: row.r_msisdn!,
          status: row.r_status as RecipientStatus,
          updatedAt: row.r_updated_at === null ? null : Number(row.r_updated_at),
        });
      }
      const message: Message = toMessage(first);
      return { message, counts, rows: recipients };
    },
  };
}
