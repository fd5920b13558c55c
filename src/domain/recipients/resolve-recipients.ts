import type { BlocklistStore } from '../contacts/blocklist-store.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { CompactRecipientList } from './recipient-store.js';
import type { ContactGroup, ContactsStore } from '../contacts/contacts-store.js';
import { msisdnToSuffix } from './msisdn.js';
import type { NumberList } from './number-list.js';
import { NumberSet } from './number-set.js';

/** How a send's recipients count: what its estimate shows and its message stores. */
export interface RecipientCounts {
  readonly requested: number;
  readonly duplicates: number;
  readonly valid: number;
  readonly invalid: number;
  readonly blocked: number;
  /** Recipients that will be sent to and paid for: valid and not blocked. */
  readonly charged: number;
}

export interface ResolvedRecipients extends RecipientCounts {
  readonly list: CompactRecipientList;
}

/**
 * What {@link resolveRecipients} counts, without building the list when it need not: a contact
 * group alone is counted by the store (its rows, and those blocklisted) rather than read member
 * by member, as the cost preview asks after each pause in typing (bench/README.md). The counts
 * are the same either way: the store counts only a group whose members are all in the one form
 * imports write (each then valid and distinct), and says when it cannot.
 */
export async function countRecipients(
  store: ContactsStore & BlocklistStore,
  accountId: number,
  numbers: NumberList | undefined,
  contactGroupId: number | undefined,
): Promise<RecipientCounts> {
  if (numbers === undefined && contactGroupId !== undefined) {
    const group = await ownContactGroup(store, accountId, contactGroupId);
    const tally = await store.contactGroupTally(group.id, accountId);
    if (tally !== null) {
      if (tally.members === 0) throw noRecipients(contactGroupId);
      return {
        requested: tally.members,
        duplicates: 0,
        valid: tally.members,
        invalid: 0,
        blocked: tally.blocked,
        charged: tally.members - tally.blocked,
      };
    }
  }
  const { list: _list, ...counts } = await resolveRecipients(
    store,
    accountId,
    numbers,
    contactGroupId,
  );
  return counts;
}

/**
 * Joins the request's numbers with a contact group's, then flags blocklisted ones. Numbers
 * that appear in both are sent once. Blocked and invalid recipients are kept (they are
 * reported) but never charged.
 */
export async function resolveRecipients(
  store: ContactsStore & BlocklistStore,
  accountId: number,
  numbers: NumberList | undefined,
  contactGroupId: number | undefined,
): Promise<ResolvedRecipients> {
  let valid = numbers?.valid ?? new Uint32Array(0);
  let requested = numbers?.requested ?? 0;
  let duplicates = numbers?.duplicates ?? 0;
  // An invalid entry is stored with its text, which PostgreSQL cannot hold with a U+0000 in it.
  const given = numbers?.invalid ?? [];
  const invalid = given.some((text) => text.includes('\u0000'))
    ? [...new Set(given.map((text) => text.replaceAll('\u0000', '\ufffd')))]
    : [...given];
  duplicates += given.length - invalid.length;

  if (contactGroupId !== undefined) {
    const group = await ownContactGroup(store, accountId, contactGroupId);
    const members = await store.contactNumbers(group.id);
    const union = new NumberSet(valid.length + members.length);
    for (let i = 0; i < valid.length; i++) union.add(valid[i]!);
    // Imports keep only valid numbers, but a member stored otherwise is still counted: as an
    // invalid recipient, like a malformed entry of msisdns.
    const seenInvalid = new Set(invalid);
    for (const msisdn of members) {
      const suffix = msisdnToSuffix(msisdn);
      if (suffix === null) {
        if (seenInvalid.has(msisdn)) duplicates++;
        else {
          seenInvalid.add(msisdn);
          invalid.push(msisdn);
        }
      } else if (!union.add(suffix)) duplicates++;
    }
    requested += members.length;
    valid = union.toArray();
  }

  if (requested === 0) throw noRecipients(contactGroupId);
  if (valid.length === 0) {
    throw new DomainError(
      'INVALID_NUMBER',
      'No valid number: numbers are 66XXXXXXXXX or 0XXXXXXXXX',
    );
  }

  const blockedSeqs = await findBlocked(store, accountId, valid);
  return {
    list: { numbers: valid, blockedSeqs, invalid },
    requested,
    duplicates,
    valid: valid.length,
    invalid: invalid.length,
    blocked: blockedSeqs.length,
    charged: valid.length - blockedSeqs.length,
  };
}

async function ownContactGroup(
  store: ContactsStore,
  accountId: number,
  contactGroupId: number,
): Promise<ContactGroup> {
  const group = await store.findContactGroup(contactGroupId);
  if (!group)
    throw new DomainError(
      'CONTACT_GROUP_NOT_FOUND',
      `Contact group ${contactGroupId} does not exist`,
    );
  if (group.accountId !== accountId) {
    throw new DomainError(
      'FORBIDDEN',
      `Contact group ${contactGroupId} belongs to another account`,
    );
  }
  return group;
}

function noRecipients(contactGroupId: number | undefined): DomainError {
  return invalidParameter(
    contactGroupId !== undefined
      ? 'The contact group has no numbers'
      : 'msisdns must list at least one number',
  );
}

async function findBlocked(
  store: BlocklistStore,
  accountId: number,
  valid: Uint32Array,
): Promise<number[]> {
  const blocklist = await store.blockedNumbers(accountId);
  if (blocklist.size === 0) return [];
  const blockedSuffixes = new Set<number>();
  for (const msisdn of blocklist) {
    const suffix = msisdnToSuffix(msisdn);
    if (suffix !== null) blockedSuffixes.add(suffix);
  }
  const seqs: number[] = [];
  for (let i = 0; i < valid.length; i++) if (blockedSuffixes.has(valid[i]!)) seqs.push(i + 1);
  return seqs;
}
