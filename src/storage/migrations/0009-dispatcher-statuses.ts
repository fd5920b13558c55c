import { createTable, migration, text, timestamp } from './vocabulary.js';

export const dispatcherStatusesMigration = migration(9, 'dispatcher-statuses', [
  // Each dispatcher process's operator status (docs/adr/0035): its carriers' binds and rates and
  // its own work, as the JSON its /status shows them (the process's DeliveryStatus), written by
  // the process every few seconds (one upsert) and deleted when it stops cleanly. owner names
  // the process as its chunk leases do. Readers leave out rows not written lately (a process
  // that died); dispatchers delete the long-silent ones.
  createTable('dispatcher_statuses', {
    owner: text({ primaryKey: true }),
    started_at: timestamp(),
    written_at: timestamp(),
    status: text(),
  }),
]);
