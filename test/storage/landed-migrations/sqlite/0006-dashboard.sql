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
