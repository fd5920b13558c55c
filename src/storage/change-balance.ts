import { sql, type Generated, type Transaction } from 'kysely';
import type { BalanceChange } from '../domain/credits/ledger-store.js';
import type { CreditLedgerColumns, Tables } from './schema.js';
import { webhooksStore } from './webhooks-store.js';

/**
 * The tables as the one writer of money sees them: `accounts.balance` updatable and
 * `credit_ledger` insertable. No other module can name this type, and the shared `Tables` allow
 * neither write (ADR 0031).
 */
type MoneyTables = Omit<Tables, 'accounts'> & {
  accounts: Omit<Tables['accounts'], 'balance'> & { balance: number };
  credit_ledger: Omit<CreditLedgerColumns, 'id'> & { id: Generated<number> };
};

/**
 * The one writer of `accounts.balance` and `credit_ledger`: adds `delta` to the balance and
 * writes its ledger row with the balance after; null (nothing written) when a debit is not
 * covered. It takes a Kysely `Transaction`, a class a plain handle is not assignable to, so the
 * two writes always commit or roll back together.
 *
 * Locking: the conditional UPDATE is the whole guard against a negative balance. On PostgreSQL
 * it takes the account row's lock; a concurrent change of the same account waits for that
 * transaction to end, then READ COMMITTED re-evaluates `balance >= amount` on the committed row.
 * The ledger row is inserted while the lock is held, so an account's ledger ids follow the order
 * of its balance changes and each row's `balance_after` is the one before plus its `delta`.
 * SQLite runs one write transaction at a time (BEGIN IMMEDIATE). `CHECK (… >= 0)` on
 * `accounts.balance` and `credit_ledger.balance_after` is the last line on both engines.
 */
export async function changeBalance(
  trx: Transaction<Tables>,
  { accountId, delta, reason, messageId = null, note = null, nowMs }: BalanceChange,
): Promise<number | null> {
  // A ledger row of 0, or of a fraction, records no change of money: a caller's mistake.
  if (!Number.isSafeInteger(delta) || delta === 0) {
    throw new RangeError(
      `a balance change is a whole number of credits other than 0, not ${delta}`,
    );
  }
  const money = trx as unknown as Transaction<MoneyTables>;
  const updated = await money
    .updateTable('accounts')
    .set({ balance: sql`balance + ${delta}` })
    .where('id', '=', accountId)
    .where('balance', '>=', Math.max(0, -delta))
    .returning(['balance', 'low_balance_threshold'])
    .executeTakeFirst();
  if (!updated) return null;
  const threshold = Number(updated.low_balance_threshold);
  const after = Number(updated.balance);
  // Crossing the account's threshold downwards, in the transaction of the debit that crossed it.
  if (threshold > 0 && after < threshold && after - delta >= threshold) {
    await webhooksStore(trx).addWebhookOutbox(
      accountId,
      { kind: 'balance.low', payload: { balance: after, threshold } },
      nowMs,
    );
  }
  await money
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      delta,
      reason,
      message_id: messageId,
      balance_after: updated.balance,
      note,
      created_at: nowMs,
    })
    .execute();
  return updated.balance;
}
