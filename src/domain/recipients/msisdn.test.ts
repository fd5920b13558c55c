import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MSISDN_PATTERN,
  msisdnBytesToSuffix,
  msisdnToSuffix,
  normalizeMsisdn,
  suffixToMsisdn,
} from './msisdn.js';

const INVALID = [
  '',
  '081234567', // 0 + 8 digits
  '08123456789', // 0 + 10 digits
  '6681234567', // 66 + 8 digits
  '668123456789', // 66 + 10 digits
  '812345678', // 9 digits, no prefix
  '+66812345678',
  '081-234-5678',
  '081 234 567',
  '08123456a8',
  '66a12345678',
  '1812345678', // 10 digits not starting with 0
  '67812345678', // 11 digits not starting with 66
  '０８１２３４５６７８', // full-width digits
];

function bytesToSuffix(text: string): number {
  // Pad both sides so the function must honour start/end, not the buffer's edges.
  const buf = Buffer.from(`["${text}"]`);
  return msisdnBytesToSuffix(buf, 2, buf.length - 2);
}

describe('msisdn', () => {
  it('normalises both forms of a number to the 66 form', () => {
    assert.equal(normalizeMsisdn('0812345678'), '66812345678');
    assert.equal(normalizeMsisdn('66812345678'), '66812345678');
  });

  it('maps both forms to the same 9-digit suffix', () => {
    assert.equal(msisdnToSuffix('0812345678'), 812345678);
    assert.equal(msisdnToSuffix('66812345678'), 812345678);
    assert.equal(bytesToSuffix('0812345678'), 812345678);
    assert.equal(bytesToSuffix('66812345678'), 812345678);
  });

  it('keeps leading zeros of the national digits', () => {
    assert.equal(msisdnToSuffix('0600000001'), 600000001);
    assert.equal(msisdnToSuffix('0000000001'), 1);
    assert.equal(msisdnToSuffix('66000000000'), 0);
    assert.equal(normalizeMsisdn('0000000001'), '66000000001');
    assert.equal(suffixToMsisdn(1), '66000000001');
    assert.equal(suffixToMsisdn(0), '66000000000');
    assert.equal(suffixToMsisdn(999_999_999), '66999999999');
  });

  it('rejects every other shape', () => {
    for (const text of INVALID) {
      assert.equal(normalizeMsisdn(text), null, text);
      assert.equal(msisdnToSuffix(text), null, text);
      assert.equal(bytesToSuffix(text), -1, text);
    }
  });

  it('reads bytes only within [start, end)', () => {
    const buf = Buffer.from('x0812345678x');
    assert.equal(msisdnBytesToSuffix(buf, 1, 11), 812345678);
    assert.equal(msisdnBytesToSuffix(buf, 0, 10), -1);
    assert.equal(msisdnBytesToSuffix(buf, 1, 12), -1);
  });

  it('round-trips suffixes through the 66 form', () => {
    for (const suffix of [0, 1, 12, 600000001, 812345678, 999_999_999]) {
      const msisdn = suffixToMsisdn(suffix);
      assert.equal(msisdnToSuffix(msisdn), suffix);
      assert.equal(bytesToSuffix(msisdn), suffix);
      assert.equal(msisdnToSuffix(`0${msisdn.slice(2)}`), suffix);
    }
  });

  it('refuses to format a value that is not a 9-digit suffix', () => {
    for (const bad of [-1, 1_000_000_000, 1.5, Number.NaN]) {
      assert.throws(() => suffixToMsisdn(bad), RangeError);
    }
  });

  it('publishes as MSISDN_PATTERN the same rule it applies', () => {
    // As JSON Schema validators run a pattern: with the u flag.
    const pattern = new RegExp(MSISDN_PATTERN, 'u');
    for (const text of [...INVALID, '0812345678', '66812345678', '0000000000', '66999999999']) {
      assert.equal(pattern.test(text), msisdnToSuffix(text) !== null, text);
    }
  });
});
