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
