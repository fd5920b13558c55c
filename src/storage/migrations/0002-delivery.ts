import {
  addColumn,
  createIndex,
  createTable,
  integer,
  migration,
  text,
  timestamp,
} from './vocabulary.js';

// Delivery (docs/adr/0013-delivery-state-and-dispatch.md).
export const deliveryMigration = migration(2, 'delivery', [
  // A recipient stays 'pending' until it reaches a final status; meanwhile parts_accepted /
  // parts_delivered are bit masks of its parts the carrier accepted / reported delivered, and
  // next_attempt_at holds it back for a retry.
  addColumn('recipients', 'parts_accepted', integer({ default: 0 })),
  addColumn('recipients', 'parts_delivered', integer({ default: 0 })),
  addColumn('recipients', 'next_attempt_at', timestamp({ default: 0 })),
  addColumn('recipients', 'first_attempt_at', timestamp({ nullable: true })),

  // dispatch_upto: the last seq handed to a dispatch chunk. any_accepted: 1 once a carrier
  // accepted at least one part (the message ends 'sent', else 'failed').
  addColumn('messages', 'dispatch_upto', integer({ default: 0 })),
  addColumn('messages', 'any_accepted', integer({ default: 0 })),
  createIndex('messages_dispatchable', 'messages', ['dispatch_upto', 'id'], {
    where: "status = 'pending' AND dispatch_upto < recipient_total",
  }),

  // Work a dispatcher holds or may claim: a range of one message's seqs. Deleted once every
  // recipient in it was accepted by a carrier or is final.
  createTable(
    'dispatch_chunks',
    {
      message_id: integer(),
      first_seq: integer(),
      last_seq: integer(),
      due_at: timestamp(),
      lease_owner: text({ nullable: true }),
      lease_expires_at: timestamp(),
    },
    { primaryKey: ['message_id', 'first_seq'] },
  ),

  // Receipt matching: a part the carrier accepted, by the SMSC's message id, until its receipt.
  createTable(
    'submissions',
    {
      carrier: text(),
      smsc_id: text(),
      message_id: integer(),
      seq: integer(),
      part: integer(),
      submitted_at: timestamp(),
    },
    { primaryKey: ['carrier', 'smsc_id'] },
  ),
  createIndex('submissions_age', 'submissions', ['submitted_at']),

  // Receipts that came before their submission was stored; matched by the sweep.
  createTable(
    'orphan_receipts',
    {
      carrier: text(),
      smsc_id: text(),
      outcome: text(),
      error: text({ nullable: true }),
      received_at: timestamp(),
    },
    { primaryKey: ['carrier', 'smsc_id'] },
  ),
]);
