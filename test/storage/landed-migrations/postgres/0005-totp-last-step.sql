-- The last 30-second TOTP step a user signed in or confirmed with: a code of that step or an
-- earlier one is refused, so a code seen over a shoulder cannot be used again.
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;
