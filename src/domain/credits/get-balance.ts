import { DomainError } from '../errors.js';
import type { Account, AccountStore } from '../accounts/account-store.js';

export async function getBalance(store: AccountStore, accountId: number): Promise<Account> {
  const account = await store.findAccount(accountId);
  if (!account) throw new DomainError('UNAUTHORIZED', 'The account no longer exists');
  return account;
}
