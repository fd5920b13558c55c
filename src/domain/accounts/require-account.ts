import { DomainError } from '../errors.js';
import type { Account, AccountStore } from './account-store.js';

/** The account, or a NOT_FOUND naming the id an operator typed. */
export async function requireAccount(store: AccountStore, accountId: number): Promise<Account> {
  const account = await store.findAccount(accountId);
  if (!account) {
    throw new DomainError(
      'NOT_FOUND',
      `account ${accountId} does not exist; check the id (nok admin account create prints it)`,
    );
  }
  return account;
}
