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
