import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNumberLines } from './parse-number-lines.js';

describe('parseNumberLines', () => {
  it('normalises 0XXXXXXXXX to 66XXXXXXXXX and keeps file order', async () => {
    const parsed = await parseNumberLines(['0812345678', '66900000001', '0000000002']);
    assert.deepEqual(parsed.numbers, ['66812345678', '66900000001', '66000000002']);
    assert.equal(parsed.invalid, 0);
    assert.equal(parsed.duplicates, 0);
  });

  it('drops a number given twice in either form and counts the duplicates', async () => {
    const parsed = await parseNumberLines([
      '0812345678',
      '66812345678',
      '0812345678',
      '0899999999',
    ]);
    assert.deepEqual(parsed.numbers, ['66812345678', '66899999999']);
    assert.equal(parsed.duplicates, 2);
  });

  it('skips a first line without digits as a header, and blank lines anywhere', async () => {
    const parsed = await parseNumberLines([
      '\uFEFFmsisdn,name',
      '',
      '0812345678,Somchai',
      '   ',
      '66812345679;x',
    ]);
    assert.deepEqual(parsed.numbers, ['66812345678', '66812345679']);
    assert.equal(parsed.invalid, 0);
  });

  it('treats a first line with digits as data, not a header', async () => {
    const parsed = await parseNumberLines(['phone1', '0812345678']);
    assert.equal(parsed.invalid, 1);
    assert.deepEqual(parsed.invalidSamples, [{ line: 1, value: 'phone1', reason: 'not-digits' }]);
  });

  it('counts a later line without digits as invalid, not as a header', async () => {
    const parsed = await parseNumberLines(['0812345678', 'name']);
    assert.equal(parsed.invalid, 1);
    assert.deepEqual(parsed.invalidSamples, [{ line: 2, value: 'name', reason: 'not-digits' }]);
  });

  it('reads the first CSV column, quoted or not, and ignores the others', async () => {
    const parsed = await parseNumberLines(['"0812345678","A, B"', '0812345679\t66812345670']);
    assert.deepEqual(parsed.numbers, ['66812345678', '66812345679']);
  });

  it('reads the column a header names as numbers, wherever it stands', async () => {
    const parsed = await parseNumberLines([
      'name;เบอร์โทร',
      'Somchai;0812345678',
      'Malee;66812345679',
      'Niran;',
      'Ploy;12345',
    ]);
    assert.deepEqual(parsed.numbers, ['66812345678', '66812345679']);
    assert.deepEqual(parsed.invalidSamples, [{ line: 5, value: '12345', reason: 'wrong-prefix' }]);
  });

  it('counts every invalid line but quotes only the first five, with line numbers', async () => {
    const lines = [
      '0812345678',
      '+66812345678',
      '081-234-5678',
      '12345',
      '0812345678901',
      'abc',
      '66812',
    ];
    const parsed = await parseNumberLines(lines);
    assert.equal(parsed.invalid, 6);
    assert.deepEqual(
      parsed.invalidSamples.map((sample) => sample.line),
      [2, 3, 4, 5, 6],
    );
    assert.equal(parsed.invalidSamples[0]?.value, '+66812345678');
    assert.deepEqual(parsed.numbers, ['66812345678']);
  });

  it('reads lines from an async source', async () => {
    async function* source() {
      yield 'number';
      yield '0812345678';
    }
    const parsed = await parseNumberLines(source());
    assert.deepEqual(parsed.numbers, ['66812345678']);
  });

  it('says why each line was rejected: not digits, wrong length, wrong prefix', async () => {
    const parsed = await parseNumberLines(['081234567', '6681234567', '1812345678', '08x2345678']);
    assert.deepEqual(
      parsed.invalidSamples.map((sample) => sample.reason),
      ['wrong-length', 'wrong-length', 'wrong-prefix', 'not-digits'],
    );
  });

  it('quotes as many rejected lines as asked, and counts them all', async () => {
    const lines = Array.from({ length: 30 }, (_v, i) => `bad${i}`);
    const parsed = await parseNumberLines(['0812345678', ...lines], { sampleLimit: 10 });
    assert.equal(parsed.invalid, 30);
    assert.equal(parsed.invalidSamples.length, 10);
  });

  it('refuses a list with more distinct numbers than allowed', async () => {
    await assert.rejects(
      parseNumberLines(['0812345678', '0812345679', '0812345678', '0812345670'], { maxNumbers: 2 }),
      { code: 'TOO_MANY_NUMBERS' },
    );
  });
});
