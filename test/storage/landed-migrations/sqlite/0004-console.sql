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
