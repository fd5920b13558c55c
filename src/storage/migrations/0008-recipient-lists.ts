import {
  addColumn,
  bytes,
  createIndex,
  createTable,
  engineSql,
  identity,
  integer,
  migration,
  reference,
  text,
  timestamp,
} from './vocabulary.js';

export const recipientListsMigration = migration(8, 'recipient-lists', [
  // Numbers uploaded from the console for a send (docs/adr/0034), for every api process to read
  // until the send takes them (it deletes its list in its own transaction) or they expire (the
  // scheduler purges them). As a message keeps its list: the valid numbers as packed
  // little-endian uint32 suffixes, the invalid strings as a JSON array; with the file's counts
  // that the lists cannot tell.
  createTable('recipient_lists', {
    id: identity(),
    uuid: text({ unique: true }),
    account_id: reference('accounts'),
    numbers: bytes(),
    invalid_numbers: text(),
    requested_count: integer(),
    duplicate_count: integer(),
    created_at: timestamp(),
    expires_at: timestamp(),
  }),
  createIndex('recipient_lists_account', 'recipient_lists', ['account_id', 'id']),
  createIndex('recipient_lists_expiry', 'recipient_lists', ['expires_at']),

  // 1 once a member was stored in another form than the 66XXXXXXXXX imports write (only ever
  // by a direct caller of the store): such a group is counted by reading its members, any other
  // by counting its rows (docs/adr/0034). Each engine matches the pattern its own way.
  addColumn('contact_groups', 'irregular_members', integer({ default: 0 })),
  engineSql({
    sqlite: `
UPDATE contact_groups SET irregular_members = 1 WHERE EXISTS (
  SELECT 1 FROM contacts
  WHERE contacts.group_id = contact_groups.id AND contacts.msisdn NOT GLOB '66[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'
);`,
    postgres: `
UPDATE contact_groups SET irregular_members = 1 WHERE EXISTS (
  SELECT 1 FROM contacts
  WHERE contacts.group_id = contact_groups.id AND contacts.msisdn !~ '^66[0-9]{9}$'
);`,
  }),
]);
