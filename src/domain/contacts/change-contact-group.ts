import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ContactGroup, ContactsStore } from './contacts-store.js';
import { checkGroupName } from './create-contact-group.js';
import { findOwnContactGroup } from './find-own-contact-group.js';

interface GroupChange {
  readonly accountId: number;
  readonly groupId: number;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

/** Renames one of the account's groups, with its audit line. */
export async function renameContactGroup(
  store: Transactor<ContactsStore & AuditStore>,
  input: GroupChange & { name: string },
): Promise<ContactGroup> {
  const name = checkGroupName(input.name);
  return store.transaction(async (tx) => {
    const group = await findOwnContactGroup(tx, input.accountId, input.groupId);
    await tx.renameContactGroup(group.id, name);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'contact-group.rename',
      targetType: 'contact-group',
      targetId: group.id,
      detail: { from: group.name, to: name },
      at: input.nowMs,
    });
    return { ...group, name };
  });
}

/**
 * Deletes one of the account's groups and its members. A message already accepted for the group,
 * scheduled or not, keeps the numbers it was accepted with (they were copied into its recipient
 * list at accept time), so it is sent as accepted (ADR 0029).
 */
export async function deleteContactGroup(
  store: Transactor<ContactsStore & AuditStore>,
  input: GroupChange,
): Promise<{ members: number }> {
  return store.transaction(async (tx) => {
    const group = await findOwnContactGroup(tx, input.accountId, input.groupId);
    const members = await tx.deleteContactGroup(group.id);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'contact-group.delete',
      targetType: 'contact-group',
      targetId: group.id,
      detail: { name: group.name, members },
      at: input.nowMs,
    });
    return { members };
  });
}
