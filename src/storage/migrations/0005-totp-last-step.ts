import { addColumn, integer, migration } from './vocabulary.js';

export const totpLastStepMigration = migration(5, 'totp-last-step', [
  // The last 30-second TOTP step a user signed in or confirmed with: a code of that step or an
  // earlier one is refused, so a code seen over a shoulder cannot be used again.
  addColumn('users', 'totp_last_step', integer({ nullable: true })),
]);
