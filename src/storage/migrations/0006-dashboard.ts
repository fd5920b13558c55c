import { addColumn, createIndex, createTable, integer, migration, text } from './vocabulary.js';

export const dashboardMigration = migration(6, 'dashboard', [
  // The balance below which the console warns the account's people; 0: never.
  addColumn('accounts', 'low_balance_threshold', integer({ default: 0 })),

  // The dashboard's days: an account's messages by the time they were accepted.
  createIndex('messages_account_created', 'messages', ['account_id', 'created_at']),

  // What dispatchers did, per UTC hour and carrier, added up by every dispatcher process
  // (docs/adr/0030): figure 'recipients' (first parts accepted), 'submit-error' (label: the
  // code), 'receipt-latency' (label: the upper bound of a latency bucket in seconds, or +Inf).
  createTable(
    'delivery_figures',
    {
      hour_start: integer(),
      carrier: text(),
      figure: text(),
      label: text(),
      count: integer(),
    },
    { primaryKey: ['hour_start', 'carrier', 'figure', 'label'] },
  ),
]);
