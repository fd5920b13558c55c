import {
  bytes,
  createIndex,
  createTable,
  identity,
  integer,
  migration,
  reference,
  text,
  timestamp,
} from './vocabulary.js';

export const initialMigration = migration(1, 'initial', [
  createTable('accounts', {
    id: identity(),
    name: text(),
    // Moved by changeBalance alone (ADR 0031); starts at 0, opening credits are a ledger top-up.
    balance: integer({ default: 0, check: 'balance >= 0' }),
    price_per_part: integer({ default: 1, check: 'price_per_part >= 0' }),
    rate_limit_requests: integer({ nullable: true }),
    next_ref_no: integer({ default: 1 }),
    status: text({ default: 'active' }),
    created_at: timestamp(),
  }),

  createTable('api_keys', {
    id: identity(),
    account_id: reference('accounts'),
    name: text(),
    prefix: text({ unique: true }),
    secret_hash: text(),
    scopes: text(),
    created_at: timestamp(),
    last_used_at: timestamp({ nullable: true }),
    revoked_at: timestamp({ nullable: true }),
  }),
  createIndex('api_keys_account', 'api_keys', ['account_id']),

  createTable('senders', {
    id: identity(),
    account_id: reference('accounts'),
    name: text({ unique: true }),
    status: text(),
    note: text({ nullable: true }),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  createIndex('senders_account', 'senders', ['account_id']),

  createTable(
    'sender_shares',
    {
      sender_id: reference('senders'),
      account_id: reference('accounts'),
      created_at: timestamp(),
    },
    { primaryKey: ['sender_id', 'account_id'] },
  ),
  createIndex('sender_shares_account', 'sender_shares', ['account_id']),

  createTable('templates', {
    id: identity(),
    account_id: reference('accounts'),
    name: text(),
    body: text(),
    created_at: timestamp(),
  }),

  createTable('contact_groups', {
    id: identity(),
    account_id: reference('accounts'),
    name: text(),
    created_at: timestamp(),
  }),

  createTable(
    'contacts',
    { group_id: reference('contact_groups'), msisdn: text() },
    { primaryKey: ['group_id', 'msisdn'] },
  ),

  // scope_account_id 0 is the platform-wide list.
  createTable(
    'blocklist',
    { scope_account_id: integer(), msisdn: text(), created_at: timestamp() },
    { primaryKey: ['scope_account_id', 'msisdn'] },
  ),

  // Written by changeBalance alone, read through fromLedger (ADR 0031).
  createTable('credit_ledger', {
    id: identity(),
    account_id: reference('accounts'),
    delta: integer(),
    reason: text(),
    message_id: integer({ nullable: true }),
    balance_after: integer({ check: 'balance_after >= 0' }),
    note: text({ nullable: true }),
    created_at: timestamp(),
  }),
  createIndex('credit_ledger_account', 'credit_ledger', ['account_id', 'id']),

  createTable(
    'messages',
    {
      id: identity(),
      uuid: text({ unique: true }),
      account_id: reference('accounts'),
      api_key_id: integer({ nullable: true }),
      ref_no: text(),
      sender: text(),
      content: text(),
      parts: integer(),
      status: text(),
      scheduled_at: timestamp({ nullable: true }),
      created_at: timestamp(),
      updated_at: timestamp(),
      completed_at: timestamp({ nullable: true }),
      requested_count: integer(),
      duplicate_count: integer(),
      recipient_total: integer(),
      valid_count: integer(),
      invalid_count: integer(),
      blocked_count: integer(),
      charged_count: integer(),
      price_per_part: integer(),
      cost: integer(),
      // Recipient rows exist for seq <= materialised_upto.
      materialised_upto: integer({ default: 0 }),
    },
    { unique: [['account_id', 'ref_no']] },
  ),
  createIndex('messages_account', 'messages', ['account_id', 'id']),
  createIndex('messages_account_status', 'messages', ['account_id', 'status', 'id']),
  createIndex('messages_due', 'messages', ['status', 'scheduled_at']),
  createIndex('messages_unmaterialised', 'messages', ['id'], {
    where: 'materialised_upto < recipient_total',
  }),

  // The recipient list as accepted, apart from the message row: SQLite rewrites a whole row on
  // UPDATE, and the message row changes as it is processed while this never does.
  createTable('message_recipient_lists', {
    message_id: reference('messages', { primaryKey: true }),
    // Packed little-endian uint32 national suffixes of the valid numbers, in seq order.
    numbers: bytes(),
    // JSON array of the seqs (1-based) of valid numbers that are blocklisted.
    blocked_seqs: text(),
    // JSON array of the invalid strings; they take the seqs after the valid numbers.
    invalid_numbers: text(),
  }),

  createTable(
    'message_counts',
    { message_id: reference('messages'), status: text(), count: integer() },
    { primaryKey: ['message_id', 'status'] },
  ),

  createTable(
    'recipients',
    {
      message_id: integer(),
      seq: integer(),
      msisdn: text(),
      status: text(),
      attempts: integer({ default: 0 }),
      error: text({ nullable: true }),
      updated_at: timestamp(),
    },
    { primaryKey: ['message_id', 'seq'] },
  ),
  createIndex('recipients_status', 'recipients', ['message_id', 'status', 'seq']),

  createTable(
    'idempotency_keys',
    {
      account_id: integer(),
      key: text(),
      request_hash: text(),
      response_body: text({ nullable: true }),
      message_id: integer({ nullable: true }),
      created_at: timestamp(),
    },
    { primaryKey: ['account_id', 'key'] },
  ),
]);
