import type { Kysely } from 'kysely';
import type { Store } from '../domain/ports.js';
import { accountsStore } from './accounts-store.js';
import { catalogueStore } from './catalogue-store.js';
import { messagesStore } from './messages-store.js';
import { recipientsStore } from './recipients-store.js';
import type { Db, Tables } from './schema.js';

/** The domain's Store over one Kysely handle, or over one transaction of it. */
export function createStore(db: Db): Store {
  return {
    ...accountsStore(db),
    ...catalogueStore(db),
    ...messagesStore(db),
    ...recipientsStore(db),
    transaction: (work) =>
      db.isTransaction
        ? work(createStore(db))
        : (db as Kysely<Tables>).transaction().execute((trx) => work(createStore(trx))),
  };
}
