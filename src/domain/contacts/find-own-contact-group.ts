import { DomainError } from '../errors.js';
import type { ContactGroup, ContactsStore } from './contacts-store.js';

/**
 * The account's contact group: NOT_FOUND when there is no such group, FORBIDDEN when it is
 * another account's (as every other account's resource answers on the console and /api/v2).
 */
export async function findOwnContactGroup(
  store: ContactsStore,
  accountId: number,
  groupId: number,
): Promise<ContactGroup> {
  const group = await store.findContactGroup(groupId);
  if (!group) throw new DomainError('NOT_FOUND', `Contact group ${groupId} does not exist`);
  if (group.accountId !== accountId) {
    throw new DomainError('FORBIDDEN', `Contact group ${groupId} belongs to another account`);
  }
  return group;
}
