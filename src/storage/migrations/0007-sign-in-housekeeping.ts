import {
  createIndex,
  createTable,
  dropTable,
  engineSql,
  integer,
  migration,
  text,
  timestamp,
} from './vocabulary.js';

export const signInHousekeepingMigration = migration(7, 'sign-in-housekeeping', [
  // The audit log is append-only by construction (docs/adr/0032): the database itself refuses
  // to change or delete a line, whatever code asks. Each engine writes its triggers its own way.
  engineSql({
    sqlite: `
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: a line is never changed');
END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: a line is never deleted');
END;`,
    postgres: `
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit_events is append-only: a line is never changed';
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: a line is never deleted';
END
$$;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();`,
  }),

  // Throttling by one counter per scope ('user:<email>', 'ip:<address>', 'totp:<user id>',
  // 'reset-ip:<address>', 'reset-user:<user id>'), counted up in one statement before the
  // attempt is checked, so concurrent attempts each take their own place (docs/adr/0032).
  // The window ends at expires_at; the scheduler deletes ended ones.
  dropTable('sign_in_failures'),
  createTable('sign_in_throttles', {
    scope: text({ primaryKey: true }),
    expires_at: timestamp(),
    attempts: integer(),
  }),
  createIndex('sign_in_throttles_expires', 'sign_in_throttles', ['expires_at']),

  // What the scheduler's purge looks rows up by: sessions past their absolute age (idle ones
  // by sessions_last_seen), and one-time links long expired.
  createIndex('sessions_created', 'sessions', ['created_at']),
  createIndex('invitations_expires', 'invitations', ['expires_at']),
  createIndex('password_resets_expires', 'password_resets', ['expires_at']),
]);
