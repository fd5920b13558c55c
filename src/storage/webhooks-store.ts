import { PostgresAdapter, sql } from 'kysely';
import type { WebhookEventType } from '../domain/webhooks/event-types.js';
import type {
  ClaimedDelivery,
  DeliveryState,
  OutboxEntry,
  WebhookDeliveryRecord,
  WebhookEndpoint,
  WebhookQueueStore,
} from '../domain/webhooks/webhook-store.js';
import { MESSAGE_COLUMNS, toMessage } from './rows.js';
import type { Db, Row } from './schema.js';

/**
 * Webhook endpoints, the outbox and the deliveries (docs/adr/0049), on both engines. Rows are
 * taken with `FOR UPDATE SKIP LOCKED` on PostgreSQL, where any number of processes deliver;
 * SQLite has one writer at a time and no such clause.
 */
export function webhooksStore(db: Db): WebhookQueueStore {
  const locks = db.getExecutor().adapter instanceof PostgresAdapter;

  const endpointQuery = () => db.selectFrom('webhook_endpoints').selectAll();

  return {
    async addWebhookOutbox(accountId, entry, nowMs) {
      await db
        .insertInto('webhook_outbox')
        .values({
          account_id: accountId,
          kind: entry.kind,
          payload: JSON.stringify(entry.payload),
          created_at: nowMs,
        })
        .execute();
    },

    async insertWebhookEndpoint(endpoint) {
      const row = await db
        .insertInto('webhook_endpoints')
        .values({
          uuid: endpoint.uuid,
          account_id: endpoint.accountId,
          url: endpoint.url,
          description: endpoint.description,
          event_types: JSON.stringify(endpoint.eventTypes),
          enabled: endpoint.enabled ? 1 : 0,
          secret: endpoint.secret,
          created_at: endpoint.createdAt,
          updated_at: endpoint.updatedAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toEndpoint(row);
    },

    async listWebhookEndpoints(accountId) {
      let query = endpointQuery().orderBy('id');
      if (accountId !== null) query = query.where('account_id', '=', accountId);
      return (await query.execute()).map(toEndpoint);
    },

    async findWebhookEndpoint(uuid) {
      const row = await endpointQuery().where('uuid', '=', uuid).executeTakeFirst();
      return row ? toEndpoint(row) : null;
    },

    async updateWebhookEndpoint(id, change) {
      const row = await db
        .updateTable('webhook_endpoints')
        .set({
          ...(change.url !== undefined ? { url: change.url } : {}),
          ...(change.description !== undefined ? { description: change.description } : {}),
          ...(change.eventTypes !== undefined
            ? { event_types: JSON.stringify(change.eventTypes) }
            : {}),
          ...(change.enabled !== undefined ? { enabled: change.enabled ? 1 : 0 } : {}),
          ...(change.disabledReason !== undefined
            ? { disabled_reason: change.disabledReason }
            : {}),
          ...(change.secret !== undefined ? { secret: change.secret } : {}),
          ...(change.previousSecret !== undefined
            ? { previous_secret: change.previousSecret }
            : {}),
          ...(change.previousSecretUntil !== undefined
            ? { previous_secret_until: change.previousSecretUntil }
            : {}),
          ...(change.failingSince !== undefined ? { failing_since: change.failingSince } : {}),
          updated_at: change.updatedAt,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toEndpoint(row) : null;
    },

    async disableWebhookEndpoint(id, reason, nowMs) {
      const result = await db
        .updateTable('webhook_endpoints')
        .set({ enabled: 0, disabled_reason: reason, updated_at: nowMs })
        .where('id', '=', id)
        .where('enabled', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteWebhookEndpoint(id) {
      await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async listWebhookDeliveries(endpointId, { limit, before }) {
      let query = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select([
          'd.id',
          'd.endpoint_id',
          'e.uid',
          'e.type',
          'd.state',
          'd.attempts',
          'd.next_attempt_at',
          'd.last_attempt_at',
          'd.last_status_code',
          'd.last_latency_ms',
          'd.last_error',
          'd.last_response',
          'd.created_at',
        ])
        .where('d.endpoint_id', '=', endpointId)
        .orderBy('d.id', 'desc')
        .limit(limit);
      if (before !== undefined) query = query.where('d.id', '<', before);
      return (await query.execute()).map((row): WebhookDeliveryRecord => ({
        id: Number(row.id),
        endpointId: Number(row.endpoint_id),
        eventUid: row.uid,
        eventType: row.type as WebhookEventType,
        state: row.state as DeliveryState,
        attempts: Number(row.attempts),
        nextAttemptAt: Number(row.next_attempt_at),
        lastAttemptAt: nullableNumber(row.last_attempt_at),
        statusCode: nullableNumber(row.last_status_code),
        latencyMs: nullableNumber(row.last_latency_ms),
        error: row.last_error,
        response: row.last_response,
        createdAt: Number(row.created_at),
      }));
    },

    async resendWebhookDelivery(endpointId, deliveryId, nowMs) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', next_attempt_at: nowMs, lease_until: 0 })
        .where('id', '=', deliveryId)
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    // A few statements per call, whatever the number of events: each is a round trip.
    async insertWebhookEvents(events, lease) {
      let stored = 0;
      let written = 0;
      const leased: { id: number; eventUid: string; endpointId: number }[] = [];
      let leases = lease?.limit ?? 0;
      for (let i = 0; i < events.length; i += INSERT_CHUNK) {
        const chunk = events.slice(i, i + INSERT_CHUNK);
        const rows = await db
          .insertInto('webhook_events')
          .values(
            chunk.map((event) => ({
              uid: event.uid,
              account_id: event.accountId,
              type: event.type,
              body: event.body,
              dedupe_key: event.dedupeKey,
              created_at: event.createdAt,
            })),
          )
          // A dedupe key another process stored first: that event is the one.
          .onConflict((oc) => oc.column('dedupe_key').doNothing())
          .returning(['id', 'uid'])
          .execute();
        const ids = new Map(rows.map((row) => [row.uid, Number(row.id)]));
        const uids = new Map<number, string>();
        const deliveries = chunk.flatMap((event) => {
          const eventId = ids.get(event.uid);
          if (eventId === undefined || event.endpointIds.length === 0) return [];
          stored++;
          uids.set(eventId, event.uid);
          return event.endpointIds.map((endpointId) => ({
            event_id: eventId,
            endpoint_id: endpointId,
            next_attempt_at: event.createdAt,
            lease_until: leases-- > 0 ? lease!.until : 0,
            created_at: event.createdAt,
          }));
        });
        if (deliveries.length === 0) continue;
        written += deliveries.length;
        const inserted = await db
          .insertInto('webhook_deliveries')
          .values(deliveries)
          .returning(['id', 'event_id', 'endpoint_id', 'lease_until'])
          .execute();
        // RETURNING's order is the engine's to choose: the leases are put in the events' order.
        const byPair = new Map(
          inserted
            .filter((row) => Number(row.lease_until) !== 0)
            .map((row) => [`${row.event_id}:${row.endpoint_id}`, Number(row.id)]),
        );
        for (const delivery of deliveries) {
          if (delivery.lease_until === 0) continue;
          leased.push({
            id: byPair.get(`${delivery.event_id}:${delivery.endpoint_id}`)!,
            eventUid: uids.get(delivery.event_id)!,
            endpointId: delivery.endpoint_id,
          });
        }
      }
      return { events: stored, deliveries: written, leased };
    },

    async takeWebhookOutbox(limit) {
      let query = db.selectFrom('webhook_outbox').selectAll().orderBy('id').limit(limit);
      if (locks) query = query.forUpdate().skipLocked();
      return (await query.execute()).map((row) => ({
        id: Number(row.id),
        accountId: Number(row.account_id),
        entry: { kind: row.kind, payload: JSON.parse(row.payload) } as OutboxEntry,
        createdAt: Number(row.created_at),
      }));
    },

    async deleteWebhookOutbox(ids) {
      if (ids.length === 0) return;
      await db.deleteFrom('webhook_outbox').where('id', 'in', ids).execute();
    },

    async claimWebhookDeliveries({ nowMs, leaseUntil, limit }) {
      let due = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
        .select('d.id')
        .where('d.state', '=', PENDING)
        .where('d.next_attempt_at', '<=', nowMs)
        .where('d.lease_until', '<=', nowMs)
        .where('p.enabled', '=', 1)
        .orderBy('d.next_attempt_at')
        .limit(limit);
      if (locks) due = due.forUpdate('d').skipLocked();
      // One statement: the rows are locked and leased at once, so no other process can take
      // one between the two (the lease is what keeps them off once this commits).
      const leased = await db
        .updateTable('webhook_deliveries')
        .set({ lease_until: leaseUntil })
        .where('id', 'in', due)
        .where('state', '=', PENDING)
        .where('lease_until', '<=', nowMs)
        .returning('id')
        .execute();
      const ids = leased.map((row) => Number(row.id));
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
        .selectAll('p')
        .select([
          'd.id as delivery_id',
          'd.attempts as delivery_attempts',
          'd.first_attempt_at as delivery_first_attempt_at',
          'd.created_at as delivery_created_at',
          'e.uid as event_uid',
          'e.body as event_body',
        ])
        .where('d.id', 'in', ids)
        .orderBy('d.next_attempt_at')
        .execute();
      return rows.map((row): ClaimedDelivery => ({
        id: Number(row.delivery_id),
        attempts: Number(row.delivery_attempts),
        firstAttemptAt: nullableNumber(row.delivery_first_attempt_at),
        createdAt: Number(row.delivery_created_at),
        eventUid: row.event_uid,
        body: row.event_body,
        endpoint: toEndpoint(row),
      }));
    },

    async recordWebhookAttempts(attempts) {
      if (attempts.length === 0) return;
      if (locks) {
        // PostgreSQL: one statement for them all, the attempts passed as arrays.
        await sql`
          UPDATE webhook_deliveries d SET state = v.state, attempts = d.attempts + 1,
            next_attempt_at = v.next_at, lease_until = 0,
            first_attempt_at = coalesce(d.first_attempt_at, v.at), last_attempt_at = v.at,
            last_status_code = v.code, last_latency_ms = v.latency, last_error = v.error,
            last_response = v.response
          FROM unnest(
            ${attempts.map((a) => a.deliveryId)}::bigint[],
            ${attempts.map((a) => a.state)}::text[],
            ${attempts.map((a) => a.nextAttemptAt)}::bigint[],
            ${attempts.map((a) => a.at)}::bigint[],
            ${attempts.map((a) => a.statusCode)}::int[],
            ${attempts.map((a) => Math.round(a.latencyMs))}::int[],
            ${attempts.map((a) => a.error)}::text[],
            ${attempts.map((a) => a.response)}::text[]
          ) AS v(id, state, next_at, at, code, latency, error, response)
          WHERE d.id = v.id`.execute(db);
      } else {
        // SQLite: the same, the attempts passed as one JSON array of arrays.
        const rows = attempts.map((a) => [
          a.deliveryId,
          a.state,
          a.nextAttemptAt,
          a.at,
          a.statusCode,
          Math.round(a.latencyMs),
          a.error,
          a.response,
        ]);
        await sql`
          UPDATE webhook_deliveries SET state = v.state, attempts = attempts + 1,
            next_attempt_at = v.next_at, lease_until = 0,
            first_attempt_at = coalesce(first_attempt_at, v.at), last_attempt_at = v.at,
            last_status_code = v.code, last_latency_ms = v.latency, last_error = v.error,
            last_response = v.response
          FROM (
            SELECT value ->> 0 AS id, value ->> 1 AS state, value ->> 2 AS next_at,
              value ->> 3 AS at, value ->> 4 AS code, value ->> 5 AS latency,
              value ->> 6 AS error, value ->> 7 AS response
            FROM json_each(${JSON.stringify(rows)})
          ) AS v
          WHERE webhook_deliveries.id = v.id`.execute(db);
      }
      // An endpoint is failing from its first failed attempt since its last success: its last
      // attempt of the batch decides.
      const last = new Map(attempts.map((attempt) => [attempt.endpointId, attempt]));
      for (const [endpointId, attempt] of last) {
        const delivered = attempt.state === 'delivered';
        if (delivered === (attempt.endpointFailingSince === null)) continue;
        await db
          .updateTable('webhook_endpoints')
          .set(
            attempt.state === 'delivered'
              ? { failing_since: null }
              : { failing_since: sql`coalesce(failing_since, ${attempt.at})` },
          )
          .where('id', '=', endpointId)
          .where('failing_since', attempt.state === 'delivered' ? 'is not' : 'is', null)
          .execute();
      }
    },

    async webhookBacklog(nowMs) {
      const outbox = await db
        .selectFrom('webhook_outbox')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .executeTakeFirstOrThrow();
      const due = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('d.created_at').as('oldest')])
        .where('d.state', '=', PENDING)
        .where('d.next_attempt_at', '<=', nowMs)
        .where('p.enabled', '=', 1)
        .executeTakeFirstOrThrow();
      const oldest = [outbox.oldest, due.oldest].filter((value) => value !== null).map(Number);
      return {
        depth: Number(outbox.n) + Number(due.n),
        oldestAt: oldest.length > 0 ? Math.min(...oldest) : null,
      };
    },

    async purgeWebhookDeliveries(before, limit) {
      const deliveries = await db
        .deleteFrom('webhook_deliveries')
        .where(
          'id',
          'in',
          db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('state', '<>', PENDING)
            .where('created_at', '<', before)
            .orderBy('id')
            .limit(limit),
        )
        .executeTakeFirst();
      // Events none of whose deliveries is left: pending ones keep theirs.
      const events = await db
        .deleteFrom('webhook_events')
        .where(
          'id',
          'in',
          db
            .selectFrom('webhook_events as e')
            .select('e.id')
            .where('e.created_at', '<', before)
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('webhook_deliveries as d')
                    .select('d.id')
                    .whereRef('d.event_id', '=', 'e.id'),
                ),
              ),
            )
            .orderBy('e.id')
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(deliveries.numDeletedRows) + Number(events.numDeletedRows);
    },

    async messagesById(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('id', 'in', ids)
        .execute();
      return rows.map(toMessage);
    },
  };
}

/**
 * `pending` as a literal in the SQL, not a parameter: SQLite uses the partial index of due
 * deliveries (`WHERE state = 'pending'`) only for a query that names that very value.
 */
const PENDING = sql.lit('pending');

/** Events one INSERT carries at most (6 parameters each, well under SQLite's limit). */
const INSERT_CHUNK = 500;

function toEndpoint(row: Row<'webhook_endpoints'>): WebhookEndpoint {
  return {
    id: Number(row.id),
    uuid: row.uuid,
    accountId: Number(row.account_id),
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: nullableNumber(row.previous_secret_until),
    failingSince: nullableNumber(row.failing_since),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
