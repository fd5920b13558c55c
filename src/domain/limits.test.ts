import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from './errors.js';
import { countCharacters, LIMITS } from './limits.js';
import { checkSenderName } from './senders/sender-name.js';

describe('counting characters for the limits', () => {
  it('counts code points: an astral character is one, a lone surrogate is one', () => {
    assert.equal(countCharacters(''), 0);
    assert.equal(countCharacters('😀'), 1);
    assert.equal(countCharacters('a😀b'), 3);
    assert.equal(countCharacters('สวัสดี'), 6);
    assert.equal(countCharacters('\ud83d'), 1);
    assert.equal(countCharacters('\ude00\ud83d'), 2);
    assert.equal(countCharacters('😀'.repeat(LIMITS.sendContentChars)), LIMITS.sendContentChars);
  });

  it('counts as JSON Schema maxLength does (ajv counts code points)', () => {
    for (const text of ['😀😀', 'a\ud83d', '\ud83d\ude00x', 'ไทย😀']) {
      assert.equal(countCharacters(text), [...text].length, JSON.stringify(text));
    }
  });
});

describe('sender name length', () => {
  it('accepts 11 characters and refuses 12', () => {
    assert.equal(checkSenderName('A'.repeat(LIMITS.senderNameChars)), 'A'.repeat(11));
    assert.throws(() => checkSenderName('A'.repeat(LIMITS.senderNameChars + 1)), /has 12$/);
  });

  it('reports astral characters by the same count as content: 6 emoji are 6 characters', () => {
    // Six emoji are 12 UTF-16 units: the length rule passes (6 ≤ 11), the shape rule refuses.
    assert.throws(
      () => checkSenderName('😀'.repeat(6)),
      (e: unknown) => e instanceof DomainError && /letters, digits and symbols/.test(e.message),
    );
    assert.throws(
      () => checkSenderName('😀'.repeat(12)),
      (e: unknown) => e instanceof DomainError && /has 12$/.test(e.message),
    );
  });
});
