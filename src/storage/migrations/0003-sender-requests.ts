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

// Sender-name requests (docs/adr/0019-sender-documents-in-the-database.md).
export const senderRequestsMigration = migration(3, 'sender-requests', [
  // A request is open while decided_at is NULL; one open request per name platform-wide, as
  // senders.name is unique. Who took each step is in sender_request_events.actor_user_id, with
  // no foreign key: the history outlives a removed user.
  createTable('sender_requests', {
    id: identity(),
    account_id: reference('accounts'),
    name: text(),
    purpose: text(),
    // JSON array of strings.
    sample_messages: text(),
    registration_number: text(),
    status: text(),
    sender_id: reference('senders', { nullable: true }),
    created_at: timestamp(),
    updated_at: timestamp(),
    decided_at: timestamp({ nullable: true }),
  }),
  createIndex('sender_requests_account', 'sender_requests', ['account_id', 'id']),
  createIndex('sender_requests_status', 'sender_requests', ['status', 'updated_at']),
  createIndex('sender_requests_open_name', 'sender_requests', ['name'], {
    unique: true,
    where: 'decided_at IS NULL',
  }),

  // Each step of a request's history: submitted, changes_requested, resubmitted, approved,
  // rejected. Append-only.
  createTable('sender_request_events', {
    id: identity(),
    request_id: reference('sender_requests'),
    step: text(),
    actor_user_id: integer({ nullable: true }),
    note: text({ nullable: true }),
    created_at: timestamp(),
  }),
  createIndex('sender_request_events_request', 'sender_request_events', ['request_id', 'id']),

  // The documents, bytes and all, in the same store as the request (any api process serves
  // any user); content_type is what the bytes are, never what the upload said.
  createTable('sender_documents', {
    id: identity(),
    request_id: reference('sender_requests'),
    event_id: reference('sender_request_events'),
    file_name: text(),
    content_type: text(),
    size_bytes: integer(),
    sha256: text(),
    content: bytes(),
    created_at: timestamp(),
  }),
  createIndex('sender_documents_request', 'sender_documents', ['request_id', 'id']),
]);
