import type { Migration } from '../migration.js';

// Never edit a migration that has landed; add the next number instead. postgres/migrations.ts
// carries the same ids and names (a test checks).
export const sqliteMigrations: readonly Migration[] = [
  {
    id: 1,
    name: 'initial',
    sql: `
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
  price_per_part INTEGER NOT NULL DEFAULT 1 CHECK (price_per_part >= 0),
  rate_limit_requests INTEGER,
  next_ref_no INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE senders (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  note TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX senders_account ON senders(account_id);

CREATE TABLE sender_shares (
  sender_id INTEGER NOT NULL REFERENCES senders(id),
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (sender_id, account_id)
) WITHOUT ROWID;
CREATE INDEX sender_shares_account ON sender_shares(account_id);

CREATE TABLE templates (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE contact_groups (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE contacts (
  group_id INTEGER NOT NULL REFERENCES contact_groups(id),
  msisdn TEXT NOT NULL,
  PRIMARY KEY (group_id, msisdn)
) WITHOUT ROWID;

CREATE TABLE blocklist (
  scope_account_id INTEGER NOT NULL,
  msisdn TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope_account_id, msisdn)
) WITHOUT ROWID;

CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  delta INTEGER NOT NULL,
  reason TEXT NOT NULL,
  message_id INTEGER,
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  note TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX credit_ledger_account ON credit_ledger(account_id, id);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  api_key_id INTEGER,
  ref_no TEXT NOT NULL,
  sender TEXT NOT NULL,
  content TEXT NOT NULL,
  parts INTEGER NOT NULL,
  status TEXT NOT NULL,
  scheduled_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  completed_at INTEGER,
  requested_count INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  recipient_total INTEGER NOT NULL,
  valid_count INTEGER NOT NULL,
  invalid_count INTEGER NOT NULL,
  blocked_count INTEGER NOT NULL,
  charged_count INTEGER NOT NULL,
  price_per_part INTEGER NOT NULL,
  cost INTEGER NOT NULL,
  materialised_upto INTEGER NOT NULL DEFAULT 0,
  UNIQUE (account_id, ref_no)
);
CREATE INDEX messages_account ON messages(account_id, id);
CREATE INDEX messages_account_status ON messages(account_id, status, id);
CREATE INDEX messages_due ON messages(status, scheduled_at);
CREATE INDEX messages_unmaterialised ON messages(id) WHERE materialised_upto < recipient_total;

-- The recipient list as accepted, apart from the message row: SQLite rewrites a whole row on
-- UPDATE, and the message row changes as it is processed while this never does.
CREATE TABLE message_recipient_lists (
  message_id INTEGER PRIMARY KEY REFERENCES messages(id),
  numbers BLOB NOT NULL,
  blocked_seqs TEXT NOT NULL,
  invalid_numbers TEXT NOT NULL
);

CREATE TABLE message_counts (
  message_id INTEGER NOT NULL REFERENCES messages(id),
  status TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (message_id, status)
) WITHOUT ROWID;

CREATE TABLE recipients (
  message_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  msisdn TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, seq)
) WITHOUT ROWID;
CREATE INDEX recipients_status ON recipients(message_id, status, seq);

CREATE TABLE idempotency_keys (
  account_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response_body TEXT,
  message_id INTEGER,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
) WITHOUT ROWID;
`,
  },
  {
    id: 2,
    name: 'delivery',
    sql: `
-- Delivery (docs/adr/0011-delivery-state.md). A recipient stays 'pending' until it reaches a final
-- status; meanwhile parts_accepted / parts_delivered are bit masks of its parts the carrier
-- accepted / reported delivered, and next_attempt_at holds it back for a retry.
ALTER TABLE recipients ADD COLUMN parts_accepted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recipients ADD COLUMN parts_delivered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recipients ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE recipients ADD COLUMN first_attempt_at INTEGER;

-- dispatch_upto: the last seq handed to a dispatch chunk. any_accepted: a carrier accepted at
-- least one part (the message ends 'sent', else 'failed').
ALTER TABLE messages ADD COLUMN dispatch_upto INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN any_accepted INTEGER NOT NULL DEFAULT 0;
CREATE INDEX messages_dispatchable ON messages(dispatch_upto, id)
  WHERE status = 'pending' AND dispatch_upto < recipient_total;

-- Work a dispatcher holds or may claim: a range of one message's seqs. Deleted once every
-- recipient in it was accepted by a carrier or is final.
CREATE TABLE dispatch_chunks (
  message_id INTEGER NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, first_seq)
) WITHOUT ROWID;

-- Receipt matching: a part the carrier accepted, by the SMSC's message id, until its receipt.
CREATE TABLE submissions (
  carrier TEXT NOT NULL,
  smsc_id TEXT NOT NULL,
  message_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  part INTEGER NOT NULL,
  submitted_at INTEGER NOT NULL,
  PRIMARY KEY (carrier, smsc_id)
) WITHOUT ROWID;
CREATE INDEX submissions_age ON submissions(submitted_at);

-- Receipts that came before their submission was stored; matched by the sweep.
CREATE TABLE orphan_receipts (
  carrier TEXT NOT NULL,
  smsc_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  error TEXT,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (carrier, smsc_id)
) WITHOUT ROWID;
`,
  },
  {
    id: 3,
    name: 'sender-requests',
    sql: `
-- Sender-name requests (docs/adr/0019-sender-documents-in-the-database.md). A request is open
-- while decided_at is NULL; one open request per name platform-wide, as senders.name is unique.
-- Who took each step is in sender_request_events.actor_user_id, with no foreign key: the
-- history outlives a removed user.
CREATE TABLE sender_requests (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  purpose TEXT NOT NULL,
  sample_messages TEXT NOT NULL,
  registration_number TEXT NOT NULL,
  status TEXT NOT NULL,
  sender_id INTEGER REFERENCES senders(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  decided_at INTEGER
);
CREATE INDEX sender_requests_account ON sender_requests(account_id, id);
CREATE INDEX sender_requests_status ON sender_requests(status, updated_at);
CREATE UNIQUE INDEX sender_requests_open_name ON sender_requests(name) WHERE decided_at IS NULL;

-- Each step of a request's history: submitted, changes_requested, resubmitted, approved,
-- rejected. Append-only.
CREATE TABLE sender_request_events (
  id INTEGER PRIMARY KEY,
  request_id INTEGER NOT NULL REFERENCES sender_requests(id),
  step TEXT NOT NULL,
  actor_user_id INTEGER,
  note TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX sender_request_events_request ON sender_request_events(request_id, id);

-- The documents, bytes and all, in the same store as the request (any api process serves
-- any user); content_type is what the bytes are, never what the upload said.
CREATE TABLE sender_documents (
  id INTEGER PRIMARY KEY,
  request_id INTEGER NOT NULL REFERENCES sender_requests(id),
  event_id INTEGER NOT NULL REFERENCES sender_request_events(id),
  file_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  content BLOB NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX sender_documents_request ON sender_documents(request_id, id);
`,
  },
  {
    id: 4,
    name: 'console',
    sql: `
-- The console (issue 8; docs/adr, console sessions and sign-in). People sign in; an
-- account's owner can require two-factor sign-in of its people.
ALTER TABLE accounts ADD COLUMN require_totp INTEGER NOT NULL DEFAULT 0;

-- email is stored lower-case. account_id is null for platform admins. password_hash is null
-- until an invited person sets one. recovery_codes: JSON array of the unused codes' hashes.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  account_id INTEGER REFERENCES accounts(id),
  password_hash TEXT,
  totp_secret TEXT,
  totp_enabled_at INTEGER,
  recovery_codes TEXT,
  status TEXT NOT NULL DEFAULT 'active',
  time_zone TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX users_account ON users(account_id);

-- A browser's session, signed in (user_id) or not; id_hash is the SHA-256 of the cookie's value.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users(id),
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  ip TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_last_seen ON sessions(last_seen_at);

-- Append-only: who did what, when, from where. detail is JSON and never holds a secret.
CREATE TABLE audit_events (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor_user_id INTEGER,
  account_id INTEGER,
  action TEXT NOT NULL,
  target_type TEXT,
  target_id TEXT,
  detail TEXT NOT NULL,
  ip TEXT
);
CREATE INDEX audit_events_account ON audit_events(account_id, id);
CREATE INDEX audit_events_action ON audit_events(action, id);

-- Failed sign-ins, by who was tried ('user:<email>') and from where ('ip:<address>'), for
-- throttling shared by every api process.
CREATE TABLE sign_in_failures (
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_scope ON sign_in_failures(scope, at);

-- One-time links: the token is mailed, only its SHA-256 is kept.
CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  account_id INTEGER REFERENCES accounts(id),
  invited_by INTEGER REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

CREATE TABLE password_resets (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
`,
  },
  {
    id: 5,
    name: 'totp-last-step',
    sql: `
-- The last 30-second TOTP step a user signed in or confirmed with: a code of that step or an
-- earlier one is refused, so a code seen over a shoulder cannot be used again.
ALTER TABLE users ADD COLUMN totp_last_step INTEGER;
`,
  },
  {
    id: 6,
    name: 'dashboard',
    sql: `
-- The balance below which the console warns the account's people; 0: never.
ALTER TABLE accounts ADD COLUMN low_balance_threshold INTEGER NOT NULL DEFAULT 0;

-- The dashboard's days: an account's messages by the time they were accepted.
CREATE INDEX messages_account_created ON messages(account_id, created_at);

-- What dispatchers did, per UTC hour and carrier, added up by every dispatcher process
-- (docs/adr/0030): figure 'recipients' (first parts accepted), 'submit-error' (label: the
-- code), 'receipt-latency' (label: the upper bound of a latency bucket in seconds, or +Inf).
CREATE TABLE delivery_figures (
  hour_start INTEGER NOT NULL,
  carrier TEXT NOT NULL,
  figure TEXT NOT NULL,
  label TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (hour_start, carrier, figure, label)
) WITHOUT ROWID;
`,
  },
  {
    id: 7,
    name: 'sign-in-housekeeping',
    sql: `
-- The audit log is append-only by construction (docs/adr/0032): the database itself refuses to
-- change or delete a line, whatever code asks.
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: a line is never changed');
END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: a line is never deleted');
END;

-- Throttling by one counter per scope ('user:<email>', 'ip:<address>', 'totp:<user id>',
-- 'reset-ip:<address>', 'reset-user:<user id>'), counted up in one statement before the
-- attempt is checked, so concurrent attempts each take their own place (docs/adr/0032).
-- The window ends at expires_at; the scheduler deletes ended ones.
DROP TABLE sign_in_failures;
CREATE TABLE sign_in_throttles (
  scope TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL
);
CREATE INDEX sign_in_throttles_expires ON sign_in_throttles(expires_at);

-- What the scheduler's purge looks rows up by: sessions past their absolute age (idle ones by
-- sessions_last_seen), and one-time links long expired.
CREATE INDEX sessions_created ON sessions(created_at);
CREATE INDEX invitations_expires ON invitations(expires_at);
CREATE INDEX password_resets_expires ON password_resets(expires_at);
`,
  },
  {
    id: 8,
    name: 'recipient-lists',
    sql: `
-- Numbers uploaded from the console for a send (docs/adr/0034), for every api process to read
-- until the send takes them (it deletes its list in its own transaction) or they expire (the
-- scheduler purges them). As a message keeps its list: the valid numbers as packed
-- little-endian uint32 suffixes, the invalid strings as a JSON array; with the file's counts
-- that the lists cannot tell.
CREATE TABLE recipient_lists (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  numbers BLOB NOT NULL,
  invalid_numbers TEXT NOT NULL,
  requested_count INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX recipient_lists_account ON recipient_lists(account_id, id);
CREATE INDEX recipient_lists_expiry ON recipient_lists(expires_at);

-- 1 once a member was stored in another form than the 66XXXXXXXXX imports write (only ever
-- by a direct caller of the store): such a group is counted by reading its members, any other
-- by counting its rows (docs/adr/0034).
ALTER TABLE contact_groups ADD COLUMN irregular_members INTEGER NOT NULL DEFAULT 0;
UPDATE contact_groups SET irregular_members = 1 WHERE EXISTS (
  SELECT 1 FROM contacts
  WHERE contacts.group_id = contact_groups.id AND contacts.msisdn NOT GLOB '66[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'
);
`,
  },
  {
    id: 9,
    name: 'dispatcher-statuses',
    sql: `
-- Each dispatcher process's operator status (docs/adr/0035): its carriers' binds and rates and
-- its own work, as the JSON its /status shows them, written by the process every few seconds
-- (one upsert) and deleted when it stops cleanly. owner names the process as its chunk leases
-- do. Readers leave out rows not written lately (a process that died); dispatchers delete the
-- long-silent ones.
CREATE TABLE dispatcher_statuses (
  owner TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  written_at INTEGER NOT NULL,
  status TEXT NOT NULL
);
`,
  },
];
