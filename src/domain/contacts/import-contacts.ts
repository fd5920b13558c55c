import type { Transactor } from '../transactor.js';
import type { ContactsStore } from './contacts-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { findOwnContactGroup } from './find-own-contact-group.js';
import { normaliseNumbers } from './normalise-numbers.js';
import {
  MAX_IMPORT_NUMBERS,
  REPORT_LINE_LIMIT,
  type NumberImportReport,
  type NumberRows,
} from './number-import.js';
import { parseNumberRows } from './parse-number-lines.js';

interface MembersChange {
  readonly accountId: number;
  readonly groupId: number;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

/**
 * Imports a number list into one of the account's groups: the rows are read as they arrive
 * (nothing holds the file, only the distinct numbers found so far), then the new members and the
 * audit line are written in one transaction, so a failed import adds nothing.
 */
export async function importContacts(
  store: ContactsStore & Transactor<ContactsStore & AuditStore>,
  input: MembersChange & { rows: NumberRows },
): Promise<NumberImportReport & { memberCount: number }> {
  // Checked before the body is read: another account's group is refused at once.
  await findOwnContactGroup(store, input.accountId, input.groupId);
  const parsed = await parseNumberRows(input.rows, {
    sampleLimit: REPORT_LINE_LIMIT,
    maxNumbers: MAX_IMPORT_NUMBERS,
  });
  return store.transaction(async (tx) => {
    const group = await findOwnContactGroup(tx, input.accountId, input.groupId);
    const added = await tx.addContacts(group.id, parsed.numbers);
    const report: NumberImportReport = {
      added,
      alreadyPresent: parsed.numbers.length - added,
      duplicates: parsed.duplicates,
      rejected: parsed.invalid,
      rejectedLines: parsed.invalidSamples,
    };
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'contact-group.import',
      targetType: 'contact-group',
      targetId: group.id,
      detail: {
        added,
        alreadyPresent: report.alreadyPresent,
        duplicates: report.duplicates,
        rejected: report.rejected,
      },
      at: input.nowMs,
    });
    return { ...report, memberCount: await tx.contactCount(group.id) };
  });
}

/** Adds numbers a person typed to one of the account's groups; all or nothing. */
export async function addGroupMembers(
  store: Transactor<ContactsStore & AuditStore>,
  input: MembersChange & { numbers: readonly string[] },
): Promise<{ added: number; memberCount: number }> {
  const numbers = normaliseNumbers(input.numbers);
  return store.transaction(async (tx) => {
    const group = await findOwnContactGroup(tx, input.accountId, input.groupId);
    const added = await tx.addContacts(group.id, numbers);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'contact-group.add-members',
      targetType: 'contact-group',
      targetId: group.id,
      detail: { added, numbers: numbers.slice(0, 20) },
      at: input.nowMs,
    });
    return { added, memberCount: await tx.contactCount(group.id) };
  });
}

/** Removes numbers from one of the account's groups; a number that is not a member is ignored. */
export async function removeGroupMembers(
  store: Transactor<ContactsStore & AuditStore>,
  input: MembersChange & { numbers: readonly string[] },
): Promise<{ removed: number; memberCount: number }> {
  const numbers = normaliseNumbers(input.numbers);
  return store.transaction(async (tx) => {
    const group = await findOwnContactGroup(tx, input.accountId, input.groupId);
    const removed = await tx.removeContacts(group.id, numbers);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'contact-group.remove-members',
      targetType: 'contact-group',
      targetId: group.id,
      detail: { removed, numbers: numbers.slice(0, 20) },
      at: input.nowMs,
    });
    return { removed, memberCount: await tx.contactCount(group.id) };
  });
}
