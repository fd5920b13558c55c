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
