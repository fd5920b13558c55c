import {
  addColumn,
  createIndex,
  createTable,
  identity,
  integer,
  migration,
  reference,
  text,
  timestamp,
} from './vocabulary.js';

// The console (docs/adr/0023-console-sessions-and-sign-in.md). People sign in; an account's
// owner can require two-factor sign-in of its people.
export const consoleMigration = migration(4, 'console', [
  // 1: every person of the account must sign in with a second factor.
  addColumn('accounts', 'require_totp', integer({ default: 0 })),

  // email is stored lower-case. account_id is null for platform admins. password_hash is null
  // until an invited person sets one. recovery_codes: JSON array of the unused codes' hashes.
  createTable('users', {
    id: identity(),
    email: text({ unique: true }),
    name: text(),
    role: text(),
    account_id: reference('accounts', { nullable: true }),
    password_hash: text({ nullable: true }),
    totp_secret: text({ nullable: true }),
    totp_enabled_at: timestamp({ nullable: true }),
    recovery_codes: text({ nullable: true }),
    status: text({ default: 'active' }),
    time_zone: text({ nullable: true }),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  createIndex('users_account', 'users', ['account_id']),

  // A browser's session, signed in (user_id) or not; id_hash is the SHA-256 of the cookie's
  // value.
  createTable('sessions', {
    id_hash: text({ primaryKey: true }),
    user_id: reference('users', { nullable: true }),
    csrf_token: text(),
    created_at: timestamp(),
    last_seen_at: timestamp(),
    ip: text({ nullable: true }),
  }),
  createIndex('sessions_user', 'sessions', ['user_id']),
  createIndex('sessions_last_seen', 'sessions', ['last_seen_at']),

  // Append-only: who did what, when, from where. detail is JSON and never holds a secret.
  createTable('audit_events', {
    id: identity(),
    at: timestamp(),
    actor_user_id: integer({ nullable: true }),
    account_id: integer({ nullable: true }),
    action: text(),
    target_type: text({ nullable: true }),
    target_id: text({ nullable: true }),
    detail: text(),
    ip: text({ nullable: true }),
  }),
  createIndex('audit_events_account', 'audit_events', ['account_id', 'id']),
  createIndex('audit_events_action', 'audit_events', ['action', 'id']),

  // Failed sign-ins, by who was tried ('user:<email>') and from where ('ip:<address>'), for
  // throttling shared by every api process. Replaced by sign_in_throttles in migration 7.
  createTable('sign_in_failures', { id: identity(), scope: text(), at: timestamp() }),
  createIndex('sign_in_failures_scope', 'sign_in_failures', ['scope', 'at']),

  // One-time links: the token is mailed, only its SHA-256 is kept.
  createTable('invitations', {
    id: identity(),
    token_hash: text({ unique: true }),
    email: text(),
    name: text(),
    role: text(),
    account_id: reference('accounts', { nullable: true }),
    invited_by: reference('users', { nullable: true }),
    created_at: timestamp(),
    expires_at: timestamp(),
    used_at: timestamp({ nullable: true }),
  }),

  createTable('password_resets', {
    id: identity(),
    token_hash: text({ unique: true }),
    user_id: reference('users'),
    created_at: timestamp(),
    expires_at: timestamp(),
    used_at: timestamp({ nullable: true }),
  }),
]);
