import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { receiptText, smppDate } from './receipt-text.js';

const submittedAtMs = Date.parse('2026-11-22T09:05:00Z');

describe('receipt text', () => {
  it('writes the Appendix B fields with the first 20 characters of the text', () => {
    assert.equal(
      receiptText({
        messageId: '1a2b',
        stat: 'DELIVRD',
        submittedAtMs,
        doneAtMs: submittedAtMs + 61_000,
        text: 'Hello from Nok, this is longer than twenty',
      }),
      'id:1a2b sub:001 dlvrd:001 submit date:2611220905 done date:2611220906 stat:DELIVRD err:000 text:Hello from Nok, this',
    );
  });

  it('counts nothing delivered for the other stats', () => {
    const text = receiptText({
      messageId: '9',
      stat: 'UNDELIV',
      submittedAtMs,
      doneAtMs: submittedAtMs,
      text: '',
    });
    assert.match(text, /^id:9 sub:001 dlvrd:000 .* stat:UNDELIV err:001 text:$/);
  });

  it('does not cut an emoji in half at the 20th unit', () => {
    const text = receiptText({
      messageId: '1',
      stat: 'EXPIRED',
      submittedAtMs,
      doneAtMs: submittedAtMs,
      text: 'a'.repeat(19) + '😀',
    });
    assert.ok(text.endsWith('text:' + 'a'.repeat(19)));
  });

  it('replaces characters that GSM and ASCII write differently', () => {
    const text = receiptText({
      messageId: '1',
      stat: 'DELIVRD',
      submittedAtMs,
      doneAtMs: submittedAtMs,
      text: 'a@b_c$ สวัสดี',
    });
    assert.ok(text.endsWith('text:a?b?c? ??????'));
  });

  it('dates in UTC as YYMMDDhhmm', () => {
    assert.equal(smppDate(Date.parse('2009-01-02T03:04:59Z')), '0901020304');
  });
});
