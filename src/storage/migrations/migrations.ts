import type { Migration } from '../migration.js';
import { initialMigration } from './0001-initial.js';
import { deliveryMigration } from './0002-delivery.js';
import { senderRequestsMigration } from './0003-sender-requests.js';
import { consoleMigration } from './0004-console.js';
import { totpLastStepMigration } from './0005-totp-last-step.js';
import { dashboardMigration } from './0006-dashboard.js';
import { signInHousekeepingMigration } from './0007-sign-in-housekeeping.js';
import { recipientListsMigration } from './0008-recipient-lists.js';
import { dispatcherStatusesMigration } from './0009-dispatcher-statuses.js';
import { webhooksMigration } from './0010-webhooks.js';
import { renderMigration, renderStep, type EngineName } from './render-migration.js';
import { createTable, integer, text, timestamp } from './vocabulary.js';

/**
 * Every migration, in order, each written once for both engines (ADR 0037). Never edit one that
 * has landed, in meaning or in the SQL it renders to: add the next number instead.
 */
export const migrations = [
  initialMigration,
  deliveryMigration,
  senderRequestsMigration,
  consoleMigration,
  totpLastStepMigration,
  dashboardMigration,
  signInHousekeepingMigration,
  recipientListsMigration,
  dispatcherStatusesMigration,
  webhooksMigration,
] as const;

/** Which migrations a database has had, made before any of them runs. */
export const bookkeeping = createTable(
  'nok_migrations',
  { id: integer({ primaryKey: true }), name: text(), applied_at: timestamp() },
  { ifNotExists: true },
);

/** The migrations as one engine runs them. */
export function migrationsFor(engine: EngineName): readonly Migration[] {
  return migrations.map((definition) => renderMigration(definition, engine));
}

/** The statement that makes the bookkeeping table where it is missing. */
export function bookkeepingSql(engine: EngineName): string {
  return renderStep(bookkeeping, engine);
}
