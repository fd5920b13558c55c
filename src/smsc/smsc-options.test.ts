import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSmscOptions } from './parse-smsc-options.js';
import { resolveSmscOptions } from './smsc-options.js';

describe('SMSC options', () => {
  it('delivers everything at once with the happy defaults', () => {
    const o = resolveSmscOptions({}, 1_700_000_000_000);
    assert.deepEqual(o.fates, { delivered: 1, failed: 0, expired: 0, rejected: 0, noReceipt: 0 });
    assert.deepEqual(o.receiptDelayMs, { min: 0, max: 0 });
    assert.equal(o.firstMessageId, 1_700_000_000_000_000);
    assert.equal(o.messageIdFormat, 'hex');
    assert.deepEqual(o.accounts, [{ systemId: 'nok', password: 'nok' }]);
    assert.equal(o.recordSubmits, false);
  });

  it('lets delivered take what the other ratios leave', () => {
    const o = resolveSmscOptions({ failedRatio: 0.1, noReceiptRatio: 0.2 });
    assert.ok(Math.abs(o.fates.delivered - 0.7) < 1e-12);
    assert.equal(o.fates.noReceipt, 0.2);
  });

  it('scales the ratios to sum to 1 when delivered is given', () => {
    const o = resolveSmscOptions({ deliveredRatio: 0.5, failedRatio: 0.25 });
    assert.equal(o.fates.delivered, 2 / 3);
    assert.equal(o.fates.failed, 1 / 3);
    assert.throws(() => resolveSmscOptions({ deliveredRatio: 0 }), /all 0/);
  });

  it('overrides a preset field by field', () => {
    const o = resolveSmscOptions({ preset: 'slow', submitResponseDelayMs: 5 });
    assert.equal(o.submitResponseDelayMs, 5);
    assert.deepEqual(o.receiptDelayMs, { min: 500, max: 2000 });
    assert.equal(resolveSmscOptions({ preset: 'bind-refused' }).refuseBinds, true);
    assert.equal(resolveSmscOptions({ preset: 'no-receipt' }).fates.noReceipt, 1);
  });

  it('names the bad field', () => {
    assert.throws(
      () => resolveSmscOptions({ failedRatio: 0.6, expiredRatio: 0.6 }),
      /add up to 1\.2/,
    );
    assert.throws(() => resolveSmscOptions({ failedRatio: -1 }), /^RangeError: failedRatio: /);
    assert.throws(
      () => resolveSmscOptions({ receiptDelayMs: { min: 10, max: 5 } }),
      /receiptDelayMs\.max/,
    );
    assert.throws(
      () => resolveSmscOptions({ throttleAboveSubmitsPerSecond: 0 }),
      /throttleAboveSubmitsPerSecond/,
    );
    assert.throws(() => resolveSmscOptions({ invalidPrefixes: ['66x'] }), /invalidPrefixes/);
    assert.throws(() => resolveSmscOptions({ accounts: [] }), /accounts/);
  });
});

describe('SMSC options from JSON', () => {
  it('accepts the command-line form', () => {
    const json = JSON.parse(
      '{"preset":"demo","port":2775,"receiptDelayMs":{"min":1,"max":9},"throttleAboveSubmitsPerSecond":null}',
    );
    assert.deepEqual(parseSmscOptions(json), json);
  });

  it('refuses unknown fields, wrong types and bad values, naming them', () => {
    assert.throws(() => parseSmscOptions([]), /must be a JSON object/);
    assert.throws(() => parseSmscOptions({ delay: 1 }), /unknown field "delay"/);
    assert.throws(() => parseSmscOptions({ refuseBinds: 'yes' }), /refuseBinds must be a boolean/);
    assert.throws(() => parseSmscOptions({ receiptDelayMs: { min: 1 } }), /receiptDelayMs must be/);
    assert.throws(() => parseSmscOptions({ accounts: [{ systemId: 'a' }] }), /accounts must be/);
    assert.throws(() => parseSmscOptions({ preset: 'fast' }), /preset must be one of happy/);
    assert.throws(() => parseSmscOptions({ messageIdFormat: 'uuid' }), /messageIdFormat/);
    assert.throws(() => parseSmscOptions({ port: 70000 }), /SMSC options: port: must be/);
    assert.throws(() => parseSmscOptions({ constructor: 1 }), /unknown field "constructor"/);
  });

  it('refuses the test hooks, which tests pass in code', () => {
    for (const hook of ['firstMessageId', 'recordSubmits', 'receiptBeforeResponse']) {
      const value = hook === 'firstMessageId' ? 1 : true;
      assert.throws(
        () => parseSmscOptions({ [hook]: value }),
        new RegExp(`SMSC options: ${hook} is a test hook, not a setting`),
      );
    }
  });
});
