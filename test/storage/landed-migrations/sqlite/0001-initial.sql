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
