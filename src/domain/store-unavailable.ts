/**
 * Whether an error means the store cannot serve now (it is down, unreachable, restarting, or
 * refusing writes for want of space), as opposed to a bug or a bad statement. Such a failure
 * is the operator's to fix and goes away by itself once the store is back: the API answers 503
 * STORE_UNAVAILABLE with Retry-After, and background work backs off and tries again.
 *
 * The one place that knows the drivers' errors, by their codes and messages alone (no driver is
 * imported): the error handlers of both listeners and the background loops ask it without
 * depending on storage. It follows `cause` chains (Kysely and Nok wrap errors).
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof AggregateError && e.errors.some(isStoreUnavailable)) return true;
    if (isUnavailableCode((e as { code?: unknown }).code) || UNAVAILABLE_MESSAGE.test(e.message))
      return true;
    e = e.cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again while the store is unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

function isUnavailableCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  return (
    SQLITE_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`)) ||
    NODE_NETWORK_CODES.has(code) ||
    (/^[0-9A-Z]{5}$/.test(code) &&
      (PG_SQLSTATES.has(code) || PG_SQLSTATE_CLASSES.has(code.slice(0, 2))))
  );
}

// better-sqlite3 codes (extended codes such as SQLITE_IOERR_WRITE start with the primary one):
// disk full, I/O error, the file gone or read-only, a lock held past busy_timeout.
const SQLITE_PREFIXES = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_BUSY',
];

// The pg driver's socket errors, reaching a server that is down or gone.
const NODE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// PostgreSQL SQLSTATEs (Appendix A): class 08 connection exception, class 53 insufficient
// resources (53100 disk full, 53300 too many connections); 57P01 admin shutdown, 57P02 crash
// shutdown, 57P03 cannot connect now (starting up or shutting down); 25006 read-only
// transaction (a standby after a failover).
const PG_SQLSTATE_CLASSES = new Set(['08', '53']);
const PG_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006']);

// The pg driver and pool say these without a code when a connection ends under them.
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;
