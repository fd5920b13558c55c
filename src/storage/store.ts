import { sql, type Kysely, type Transaction } from 'kysely';
import type { Store, TransactionStore } from '../domain/store.js';
import { accountsStore } from './accounts-store.js';
import { auditStore } from './audit-store.js';
import { catalogueStore } from './catalogue-store.js';
import { contactsStore } from './contacts-store.js';
import { changeBalance } from './change-balance.js';
import { dashboardStore } from './dashboard-store.js';
import { messagesStore } from './messages-store.js';
import { recipientListsStore } from './recipient-lists-store.js';
import { recipientsStore } from './recipients-store.js';
import { senderRequestsStore } from './sender-requests-store.js';
import { peopleStore } from './people-store.js';
import { sessionsStore } from './sessions-store.js';
import { usersStore } from './users-store.js';
import { webhooksStore } from './webhooks-store.js';
import type { Db, Tables } from './schema.js';

/**
 * The domain's Store over one Kysely handle. It has no `changeBalance`: only the store its
 * `transaction` hands to `work` does, bound to that transaction.
 */
export function createStore(db: Kysely<Tables>): Store {
  return {
    ...queries(db),
    transaction: (work) =>
      db.isTransaction
        ? inTransaction(db as Transaction<Tables>, work)
        : db.transaction().execute((trx) => inTransaction(trx, work)),
  };
}

/** Runs `work` with a store bound to `trx` that refuses balance changes once `work` settles. */
async function inTransaction<T>(
  trx: Transaction<Tables>,
  work: (tx: TransactionStore) => Promise<T>,
): Promise<T> {
  let open = true;
  const tx: TransactionStore = {
    ...queries(trx),
    transaction: (nested) => nested(tx),
    changeBalance(change) {
      if (!open) {
        return Promise.reject(
          new Error('changeBalance called after its transaction ended; call it inside the work'),
        );
      }
      return changeBalance(trx, change);
    },
    async lockAccount(accountId) {
      // A write to the row: PostgreSQL holds its lock to the commit; SQLite's write transactions
      // already run one at a time.
      await trx
        .updateTable('accounts')
        .set({ id: sql`id` })
        .where('id', '=', accountId)
        .execute();
    },
  };
  try {
    return await work(tx);
  } finally {
    open = false;
  }
}

function queries(db: Db): Omit<Store, 'transaction'> {
  return {
    ...accountsStore(db),
    ...catalogueStore(db),
    ...contactsStore(db),
    ...messagesStore(db),
    ...recipientsStore(db),
    ...recipientListsStore(db),
    ...senderRequestsStore(db),
    ...usersStore(db),
    ...sessionsStore(db),
    ...peopleStore(db),
    ...auditStore(db),
    ...dashboardStore(db),
    ...webhooksStore(db),
  };
}
