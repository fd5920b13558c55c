import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { smscIdForms } from './delivery-store.js';

/** The forms as exact integer arithmetic gives them, for any length. */
function reference(id: string): string[] {
  const given = id
    .trim()
    .toLowerCase()
    .replace(/^0+(?=.)/, '');
  const forms = [given];
  if (/^[0-9]+$/.test(given) && given.length <= 20) forms.push(BigInt(given).toString(16));
  if (/^[0-9a-f]+$/.test(given) && given.length <= 16) {
    forms.push(BigInt(`0x${given}`).toString(10));
  }
  return [...new Set(forms)];
}

describe('an SMSC id’s forms', () => {
  it('are the id as given, as decimal read as hex, and as hex read as decimal', () => {
    assert.deepEqual(smscIdForms(' 00255 '), ['255', 'ff', '597']);
    assert.deepEqual(smscIdForms('FF'), ['ff', '255']);
    assert.deepEqual(smscIdForms('1a2b'), ['1a2b', '6699']);
    assert.deepEqual(smscIdForms('0'), ['0']);
    assert.deepEqual(smscIdForms('msg-17'), ['msg-17']);
  });

  it('are exact at every length, on both sides of what a double holds', () => {
    const digits = (alphabet: string, max: number) =>
      fc
        .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: max })
        .map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.oneof(digits('0123456789', 22), digits('0123456789abcdefABCDEF', 18)),
        (id) => {
          assert.deepEqual(smscIdForms(id), reference(id));
        },
      ),
      { seed: 2026_11_28, numRuns: 2000 },
    );
  });
});
