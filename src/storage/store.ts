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
  const own: Pick<Store, 'transaction'> = {
    transaction: (work) =>
      db.isTransaction
        ? inTransaction(db as Transaction<Tables>, work)
        : db.transaction().execute((trx) => inTransaction(trx, work)),
  };
  return queries(db, own);
}

/** Runs `work` with a store bound to `trx` that refuses balance changes once `work` settles. */
async function inTransaction<T>(
  trx: Transaction<Tables>,
  work: (tx: TransactionStore) => Promise<T>,
): Promise<T> {
  let open = true;
  const own: Pick<TransactionStore, 'transaction' | 'changeBalance' | 'lockAccount'> = {
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
  const tx: TransactionStore = queries(trx, own);
  try {
    return await work(tx);
  } finally {
    open = false;
  }
}

/** Every area's store, each a function of the handle it runs on. */
const AREAS = [
  accountsStore,
  catalogueStore,
  contactsStore,
  messagesStore,
  recipientsStore,
  recipientListsStore,
  senderRequestsStore,
  usersStore,
  sessionsStore,
  peopleStore,
  auditStore,
  dashboardStore,
  webhooksStore,
] as const;

type Queries = Omit<Store, 'transaction'>;

const HANDLE = Symbol('handle');
const BUILT = Symbol('built');

interface Lazy {
  readonly [HANDLE]: Db;
  readonly [BUILT]: (Record<string, unknown> | undefined)[];
}

/**
 * A getter for each query method, built once: an object inheriting them builds an area's store
 * on its handle the first time one of the area's methods is read. Two areas defining one name
 * is an error here rather than the later one silently winning.
 */
let prototype: object | undefined;

function queriesPrototype(db: Db): object {
  if (prototype) return prototype;
  const getters: PropertyDescriptorMap = {};
  const owners = new Map<string, string>();
  AREAS.forEach((area, index) => {
    for (const name of Object.keys(area(db))) {
      if (owners.has(name)) {
        throw new Error(`${owners.get(name)} and ${area.name} both define ${name}`);
      }
      owners.set(name, area.name);
      getters[name] = {
        get(this: Lazy) {
          const built = (this[BUILT][index] ??= AREAS[index]!(this[HANDLE]) as Record<
            string,
            unknown
          >);
          return built[name];
        },
      };
    }
  });
  return (prototype = Object.create(Object.prototype, getters) as object);
}

/**
 * The query methods on `db`, plus `own` properties. Each area's store is built at its first
 * use: a transaction runs a few statements of one or two areas, and building every area's
 * (some 300 closures) for each one cost more than the transaction itself.
 */
function queries<T extends object>(db: Db, own: T): Queries & T {
  const lazy: Lazy = { [HANDLE]: db, [BUILT]: new Array(AREAS.length) };
  return Object.assign(
    Object.create(queriesPrototype(db)) as object,
    lazy,
    own,
  ) as unknown as Queries & T;
}
