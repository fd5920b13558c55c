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
