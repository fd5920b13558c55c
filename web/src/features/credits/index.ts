/** What other features may use of credits: an account's ledger, as a query and as a table. */
export { ledgerKey, useLedger, type LedgerScope } from './api';
export { LedgerTable } from './ledger-table';
