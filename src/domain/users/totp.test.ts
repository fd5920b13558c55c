import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hashRecoveryCode,
  isTotpCodeShaped,
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  totpCode,
  totpUri,
} from './totp.js';

// RFC 6238 appendix B's SHA-1 secret, "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP_MS = 30_000;

describe('TOTP', () => {
  it('gives the codes of RFC 6238 (its eight digits, cut to six)', () => {
    assert.equal(totpCode(RFC_SECRET, 59_000), '287082');
    assert.equal(totpCode(RFC_SECRET, 1_111_111_109_000), '081804');
    assert.equal(totpCode(RFC_SECRET, 2_000_000_000_000), '279037');
  });

  it('matches a code to its step, one step either side of now and no further', () => {
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    assert.equal(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now), now), step);
    assert.equal(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - STEP_MS), now), step - 1);
    assert.equal(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now + STEP_MS), now), step + 1);
    assert.equal(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 2 * STEP_MS), now), null);
    const code = totpCode(RFC_SECRET, now);
    assert.equal(matchTotpStep(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now), step);
    assert.equal(matchTotpStep(RFC_SECRET, '12345', now), null);
    assert.equal(matchTotpStep(RFC_SECRET, 'abcdef', now), null);
  });

  it('makes 160-bit secrets and an otpauth URI labelled Nok and the email', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(secret, newTotpSecret());
    assert.equal(
      totpUri(RFC_SECRET, 'ops@nok.example'),
      `otpauth://totp/Nok:ops%40nok.example?issuer=Nok&secret=${RFC_SECRET}&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('tells an authenticator code from a recovery code', () => {
    assert.ok(isTotpCodeShaped('123456'));
    assert.ok(isTotpCodeShaped('123 456'));
    assert.ok(!isTotpCodeShaped('k7q2-9xhm-4tcp-w8rd'));
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of four groups of four unambiguous characters', () => {
    const codes = newRecoveryCodes();
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
  });

  it('hash the same however they are typed: capitals, spaces, no dashes', () => {
    const hash = hashRecoveryCode('k7q2-9xhm-4tcp-w8rd');
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(hashRecoveryCode('K7Q2-9XHM-4TCP-W8RD'), hash);
    assert.equal(hashRecoveryCode('k7q2 9xhm 4tcp w8rd'), hash);
    assert.equal(hashRecoveryCode('k7q29xhm4tcpw8rd'), hash);
    assert.notEqual(hashRecoveryCode('k7q2-9xhm-4tcp-w8re'), hash);
  });
});
