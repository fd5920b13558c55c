import { DomainError } from '../errors.js';
import type { Account } from '../accounts/account-store.js';
import type { Store } from '../store.js';

export async function getBalance(store: Store, accountId: number): Promise<Account> {
  const account = await store.findAccount(accountId);
  if (!account) throw new DomainError('UNAUTHORIZED', 'The account no longer exists');
  return account;
}
