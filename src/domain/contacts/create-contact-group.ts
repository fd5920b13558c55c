import type { AccountStore } from '../accounts/account-store.js';
import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import { requireAccount } from '../accounts/require-account.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { invalidParameter } from '../errors.js';
import type { ContactGroup, ContactsStore } from './contacts-store.js';
import { parseNumberLines, type InvalidLine } from './parse-number-lines.js';
import { countCharacters } from '../limits.js';

export interface ContactGroupImport {
  readonly group: ContactGroup;
  readonly imported: number;
  readonly duplicates: number;
  readonly invalid: number;
  readonly invalidSamples: InvalidLine[];
}

/** The longest group name. */
export const GROUP_NAME_MAX = 100;

export function checkGroupName(text: string): string {
  const name = text.trim();
  if (name.length === 0) throw invalidParameter('the group name must not be empty');
  if (countCharacters(name) > GROUP_NAME_MAX)
    throw invalidParameter(`the group name is longer than ${GROUP_NAME_MAX} characters`);
  return name;
}

/**
 * Creates a contact group from a number list (see {@link parseNumberLines}; none for an empty
 * group). Invalid lines are reported and left out; the group, its members and the audit line are
 * written in one transaction, so a failed import leaves no half-filled group behind.
 */
export async function createContactGroup(
  store: AccountStore & Transactor<ContactsStore & AuditStore>,
  input: {
    accountId: number;
    name: string;
    lines?: AsyncIterable<string> | Iterable<string>;
    nowMs: number;
    actor?: AuditActor;
  },
): Promise<ContactGroupImport> {
  const name = checkGroupName(input.name);
  await requireAccount(store, input.accountId);
  const parsed = await parseNumberLines(input.lines ?? []);
  return store.transaction(async (tx) => {
    const group = await tx.createContactGroup({
      accountId: input.accountId,
      name,
      nowMs: input.nowMs,
    });
    const imported = await tx.addContacts(group.id, parsed.numbers);
    await recordAudit(tx, {
      ...(input.actor ?? SYSTEM_ACTOR),
      accountId: input.accountId,
      action: 'contact-group.create',
      targetType: 'contact-group',
      targetId: group.id,
      detail: { name, imported },
      at: input.nowMs,
    });
    return {
      group,
      imported,
      duplicates: parsed.duplicates,
      invalid: parsed.invalid,
      invalidSamples: parsed.invalidSamples,
    };
  });
}
