-- Each dispatcher process's operator status (docs/adr/0035): its carriers' binds and rates and
-- its own work, as the JSON its /status shows them, written by the process every few seconds
-- (one upsert) and deleted when it stops cleanly. owner names the process as its chunk leases
-- do. Readers leave out rows not written lately (a process that died); dispatchers delete the
-- long-silent ones.
CREATE TABLE dispatcher_statuses (
  owner TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  written_at BIGINT NOT NULL,
  status TEXT NOT NULL
);
