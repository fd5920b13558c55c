import { requireAccount } from '../accounts/require-account.js';
import { invalidParameter } from '../errors.js';
import type { ContactGroup, Store } from '../ports.js';
import { parseNumberLines, type InvalidLine } from './parse-number-lines.js';

export interface ContactGroupImport {
  readonly group: ContactGroup;
  readonly imported: number;
  readonly duplicates: number;
  readonly invalid: number;
  readonly invalidSamples: InvalidLine[];
}

/**
 * Creates a contact group from a number list (see {@link parseNumberLines}). Invalid lines are
 * reported and left out; the group and its members are written in one transaction, so a failed
 * import leaves no half-filled group behind.
 */
export async function createContactGroup(
  store: Store,
  input: {
    accountId: number;
    name: string;
    lines: AsyncIterable<string> | Iterable<string>;
    nowMs: number;
  },
): Promise<ContactGroupImport> {
  const name = input.name.trim();
  if (name.length === 0) throw invalidParameter('the group name must not be empty');
  await requireAccount(store, input.accountId);
  const parsed = await parseNumberLines(input.lines);
  return store.transaction(async (tx) => {
    const group = await tx.createContactGroup({
      accountId: input.accountId,
      name,
      nowMs: input.nowMs,
    });
    const imported = await tx.addContacts(group.id, parsed.numbers);
    return {
      group,
      imported,
      duplicates: parsed.duplicates,
      invalid: parsed.invalid,
      invalidSamples: parsed.invalidSamples,
    };
  });
}
