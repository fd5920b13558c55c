import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { DomainError, type ErrorCode } from '../../domain/errors.js';
import { contentSchema, parseOrRefuse, scheduledTimeSchema, variablesSchema } from './fields.js';

/** The code `value` is refused with as the member `name` of a body, or null when accepted. */
function refusal(name: string, schema: z.ZodType, value: unknown): ErrorCode | null {
  try {
    parseOrRefuse(z.object({ [name]: schema }), { [name]: value });
    return null;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error.code;
  }
}

describe('the field rules', () => {
  it('reads scheduledTime into its instant, with a positive, negative or zero offset', () => {
    for (const [text, instant] of [
      ['2026-11-23T09:30:00+07:00', '2026-11-23T02:30:00Z'],
      ['2026-11-23T09:30:00-03:30', '2026-11-23T13:00:00Z'],
      ['2026-11-23T09:30:00.250Z', '2026-11-23T09:30:00.250Z'],
    ] as const) {
      assert.equal(parseOrRefuse(scheduledTimeSchema, text), Date.parse(instant));
    }
  });

  it('refuses a scheduledTime without an offset, a non-string or an impossible date as INVALID_SCHEDULED_TIME', () => {
    for (const bad of [
      '2026-11-23T09:30:00',
      '2026-11-23',
      123,
      null,
      '2026-02-30T10:00:00+07:00',
      '2026-11-23T24:00:00Z',
      '2026-11-23T23:59:60Z',
      '2026-11-23T09:30+07:00',
      '2026-11-23 09:30:00Z',
      '2026-11-23t09:30:00z',
      '2026-11-23T09:30:00.1234567890Z',
      '2026-11-23T09:30:00+24:00',
      'tomorrow',
    ]) {
      assert.equal(
        refusal('scheduledTime', scheduledTimeSchema, bad),
        'INVALID_SCHEDULED_TIME',
        String(bad),
      );
    }
  });

  it('refuses content too long as CONTENT_TOO_LONG, counting code points, and blank or NUL text as INVALID_PARAMETER', () => {
    const content = contentSchema(5);
    assert.equal(refusal('content', content, '😀'.repeat(5)), null);
    assert.equal(refusal('content', content, '😀'.repeat(6)), 'CONTENT_TOO_LONG');
    for (const bad of ['', '  \n', 'a\u0000b', 42]) {
      assert.equal(refusal('content', content, bad), 'INVALID_PARAMETER', JSON.stringify(bad));
    }
  });

  it('accepts only objects of scalar values as variables', () => {
    assert.equal(refusal('variables', variablesSchema, { a: 'x', b: 1, c: true }), null);
    for (const bad of [null, [], 'x', 3, { a: { b: 1 } }, { a: null }]) {
      assert.equal(refusal('variables', variablesSchema, bad), 'INVALID_PARAMETER');
    }
  });
});
