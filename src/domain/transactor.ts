/**
 * Runs work in one transaction of the store, handing it `T`: the ports the work may use inside,
 * among them the ones that exist only there (a balance change, an account's lock). A use case
 * declares the `T` it needs, so what it can do inside a transaction is in its signature.
 */
export interface Transactor<T> {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * Called on a store already bound to a transaction, it runs `work` in that same transaction.
   */
  transaction<R>(work: (tx: T) => Promise<R>): Promise<R>;
}
