import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStoreUnavailable } from './store-unavailable.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('knows the SQLite codes of a full, broken, busy or read-only file, extended codes too', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_BUSY', 'SQLITE_READONLY'])
      assert.equal(isStoreUnavailable(coded(code)), true, code);
  });

  it('knows PostgreSQL connection, resource and shutdown states and the driver socket errors', () => {
    for (const code of ['08006', '53100', '57P01', '57P03', '25006', 'ECONNREFUSED', 'ECONNRESET'])
      assert.equal(isStoreUnavailable(coded(code)), true, code);
    assert.equal(isStoreUnavailable(new Error('Connection terminated unexpectedly')), true);
  });

  it('follows causes and aggregate errors', () => {
    assert.equal(isStoreUnavailable(new Error('wrapped', { cause: coded('SQLITE_FULL') })), true);
    assert.equal(isStoreUnavailable(new AggregateError([coded('ECONNREFUSED')])), true);
  });

  it('leaves bugs and refused statements alone', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', '23505', '42P01', '40P01'])
      assert.equal(isStoreUnavailable(coded(code)), false, code);
    assert.equal(isStoreUnavailable(new TypeError('x is undefined')), false);
    assert.equal(isStoreUnavailable('SQLITE_FULL'), false);
    assert.equal(isStoreUnavailable(null), false);
  });
});
