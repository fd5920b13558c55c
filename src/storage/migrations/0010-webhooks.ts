import {
  createIndex,
  createTable,
  identity,
  integer,
  migration,
  reference,
  text,
  timestamp,
} from './vocabulary.js';

export const webhooksMigration = migration(10, 'webhooks', [
  // An account's webhook endpoints (docs/adr/0049). `event_types` is a JSON array of the types
  // it wants, '[]' for all of them. A rotated secret stays valid until `previous_secret_until`:
  // deliveries are signed with both until then. `failing_since` is the time of the first failed
  // attempt since the last success: an endpoint failing for the whole retry window is disabled.
  createTable('webhook_endpoints', {
    id: identity(),
    uuid: text({ unique: true }),
    account_id: reference('accounts'),
    url: text(),
    description: text({ default: '' }),
    event_types: text({ default: '[]' }),
    enabled: integer({ default: 1 }),
    disabled_reason: text({ nullable: true }),
    secret: text(),
    previous_secret: text({ nullable: true }),
    previous_secret_until: timestamp({ nullable: true }),
    failing_since: timestamp({ nullable: true }),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  createIndex('webhook_endpoints_account', 'webhook_endpoints', ['account_id', 'id']),

  // What happened, written in the transaction of the change that caused it: one row per
  // batch of receipts and account (`recipients`: the recipients the batch made final), one per
  // other event. The fan-out turns rows into events for the account's endpoints and deletes
  // them, in one transaction.
  createTable('webhook_outbox', {
    id: identity(),
    account_id: reference('accounts'),
    kind: text(),
    payload: text(),
    created_at: timestamp(),
  }),
  createIndex('webhook_outbox_account', 'webhook_outbox', ['account_id', 'id']),

  // An event as it is posted: its id (webhook-id, the same at every attempt) and its body, the
  // exact bytes signed. `dedupe_key` makes an event that two processes may both derive (a
  // message completed) one event.
  createTable('webhook_events', {
    id: identity(),
    uid: text({ unique: true }),
    account_id: reference('accounts'),
    type: text(),
    body: text(),
    dedupe_key: text({ nullable: true, unique: true }),
    created_at: timestamp(),
  }),
  createIndex('webhook_events_account', 'webhook_events', ['account_id', 'id']),

  // One event to one endpoint: its attempts. `state` is pending (due at `next_attempt_at`),
  // delivered or failed (given up). A deliverer leases a due row until `lease_until` (longer
  // than a request's timeout), posts it, and writes the outcome: no other process posts it
  // meanwhile.
  createTable('webhook_deliveries', {
    id: identity(),
    event_id: reference('webhook_events'),
    endpoint_id: reference('webhook_endpoints'),
    state: text({ default: 'pending' }),
    attempts: integer({ default: 0 }),
    next_attempt_at: timestamp(),
    lease_until: timestamp({ default: 0 }),
    first_attempt_at: timestamp({ nullable: true }),
    last_attempt_at: timestamp({ nullable: true }),
    last_status_code: integer({ nullable: true }),
    last_latency_ms: integer({ nullable: true }),
    last_error: text({ nullable: true }),
    last_response: text({ nullable: true }),
    created_at: timestamp(),
  }),
  createIndex('webhook_deliveries_due', 'webhook_deliveries', ['next_attempt_at'], {
    where: "state = 'pending'",
  }),
  createIndex('webhook_deliveries_endpoint', 'webhook_deliveries', ['endpoint_id', 'id']),
  createIndex('webhook_deliveries_event', 'webhook_deliveries', ['event_id']),
]);
