import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../domain/errors.js';
import { describeFailure } from './describe-failure.js';
import { ExplainedError } from '../domain/explained-error.js';

const frameOfThisFile = /^\s+at .*describe-failure\.test\.ts:\d+/;

/** The lines of `text` that are not stack frames. */
const headlines = (text: string) => text.split('\n').filter((line) => !/^\s+at /.test(line));

describe('describeFailure', () => {
  it('prints an explained failure as its message alone, one line, its cause already in it', () => {
    const cause = new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080');
    const error = new ExplainedError(
      `Cannot listen for the API on 127.0.0.1:8080 (NOK_HOST, NOK_PORT): ${cause.message}`,
      { cause },
    );
    assert.equal(describeFailure(error), error.message);
  });

  it('prints an unexpected failure with every cause in turn, each with where it was thrown', () => {
    const inner = new RangeError('offset out of range');
    const middle = new Error('cannot read the page', { cause: inner });
    const outer = new TypeError('the store answered nothing', { cause: middle });
    const text = describeFailure(outer);
    assert.deepEqual(headlines(text), [
      'TypeError: the store answered nothing',
      'caused by: cannot read the page',
      'caused by: RangeError: offset out of range',
    ]);
    // Frames follow each headline: the first line after each is where that error was made.
    const lines = text.split('\n');
    for (const headline of headlines(text)) {
      assert.match(lines[lines.indexOf(headline) + 1]!, frameOfThisFile, headline);
    }
  });

  it('prints a rule of Nok saying no as its message, without frames, and a cause under it with its frames', () => {
    const cause = new Error('socket hang up');
    const text = describeFailure(
      new DomainError('STORE_UNAVAILABLE', 'the store is down', { cause }),
    );
    const lines = text.split('\n');
    assert.equal(lines[0], 'the store is down');
    assert.equal(lines[1], 'caused by: socket hang up');
    assert.match(lines[2]!, frameOfThisFile);
  });

  it('stops at a circular chain of causes, saying so', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    assert.deepEqual(headlines(describeFailure(a)), [
      'a',
      'caused by: b',
      'caused by: … (chain cut)',
    ]);
  });

  it('cuts a chain longer than any Nok builds, saying so', () => {
    let error: unknown = 'the root';
    for (let i = 0; i < 20; i += 1) error = new Error(`level ${i}`, { cause: error });
    const lines = headlines(describeFailure(error));
    assert.equal(lines.at(-1), 'caused by: … (chain cut)');
    assert.ok(lines.length < 15, lines.join('\n'));
  });

  it('prints a value thrown that is not an Error as it is', () => {
    assert.equal(describeFailure('a string'), 'a string');
  });
});
